//! A request body that stops at a byte budget: the one body reader of the API. actix-multipart
//! buffers what it has not parsed yet (a body that never sends a boundary would be kept whole), so
//! the cap sits under it, on the raw bytes, whether the body is chunked or declares a length;
//! [`read_all`] reads a small body (a chat platform's command) whole under the same cap.

use std::cell::Cell;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use actix_web::error::PayloadError;
use actix_web::http::header::CONTENT_LENGTH;
use actix_web::web::{self, Bytes, BytesMut};
use actix_web::HttpRequest;
use futures_util::{Stream, StreamExt};

/// The body, ending in `PayloadError::Overflow` once more than `cap` bytes arrived.
pub struct CappedBody<S> {
    inner: S,
    left: u64,
    overflowed: Rc<Cell<bool>>,
}

impl<S> CappedBody<S> {
    /// The body and a flag that says afterwards whether it was cut for being too long.
    pub fn new(inner: S, cap: u64) -> (Self, Rc<Cell<bool>>) {
        let overflowed = Rc::new(Cell::new(false));
        (Self { inner, left: cap, overflowed: overflowed.clone() }, overflowed)
    }
}

impl<S> Stream for CappedBody<S>
where
    S: Stream<Item = Result<Bytes, PayloadError>> + Unpin,
{
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.overflowed.get() {
            return Poll::Ready(None);
        }
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                let len = chunk.len() as u64;
                if len > self.left {
                    self.overflowed.set(true);
                    return Poll::Ready(Some(Err(PayloadError::Overflow)));
                }
                self.left -= len;
                Poll::Ready(Some(Ok(chunk)))
            }
            other => other,
        }
    }
}

/// Why a whole body could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyError {
    /// More than the cap was declared or arrived.
    TooLarge,
    /// The body broke off or could not be decoded.
    Unreadable,
}

/// The `Content-Length` a request declares, when it declares one that is a number.
pub fn declared_length(req: &HttpRequest) -> Option<u64> {
    req.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok())
}

/// The whole body in memory, refused past `cap` bytes whatever its `Content-Length` said (a
/// declared length over the cap is refused before a byte is read).
///
/// # Errors
/// `TooLarge` past the cap; `Unreadable` when the body breaks off.
pub async fn read_all(req: &HttpRequest, payload: web::Payload, cap: u64) -> Result<Bytes, BodyError> {
    if declared_length(req).is_some_and(|length| length > cap) {
        return Err(BodyError::TooLarge);
    }
    let (mut body, overflowed) = CappedBody::new(payload, cap);
    let mut bytes = BytesMut::new();
    while let Some(chunk) = body.next().await {
        match chunk {
            Ok(chunk) => bytes.extend_from_slice(&chunk),
            Err(_) if overflowed.get() => return Err(BodyError::TooLarge),
            Err(_) => return Err(BodyError::Unreadable),
        }
    }
    Ok(bytes.freeze())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[actix_web::test]
    async fn passes_the_budget_then_stops() {
        let chunks = futures_util::stream::iter((0..10).map(|_| Ok::<_, PayloadError>(Bytes::from(vec![0u8; 100]))));
        let (mut body, overflowed) = CappedBody::new(chunks, 450);
        let mut seen = 0;
        let mut error = false;
        while let Some(item) = body.next().await {
            match item {
                Ok(chunk) => seen += chunk.len(),
                Err(_) => error = true,
            }
        }
        assert_eq!((seen, error, overflowed.get()), (400, true, true));

        let chunks = futures_util::stream::iter((0..4).map(|_| Ok::<_, PayloadError>(Bytes::from(vec![0u8; 100]))));
        let (body, overflowed) = CappedBody::new(chunks, 400);
        assert_eq!(body.map(|c| c.map(|b| b.len()).unwrap_or(0)).collect::<Vec<_>>().await.iter().sum::<usize>(), 400);
        assert!(!overflowed.get());
    }
}
