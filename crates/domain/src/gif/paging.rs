//! Pages of a list.

use crate::ValidationError;

/// Page size when the client gives none (spec §7), and the largest we serve.
pub const DEFAULT_PAGE_SIZE: u32 = 6;
pub const MAX_PAGE_SIZE: u32 = 100;

/// A page request: page from 0, size 1 to 100.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    pub page: u32,
    pub size: u32,
}

impl PageRequest {
    pub fn new(page: Option<u32>, size: Option<u32>) -> Result<Self, ValidationError> {
        let size = size.unwrap_or(DEFAULT_PAGE_SIZE);
        if size == 0 || size > MAX_PAGE_SIZE {
            return Err(ValidationError::new("size", format!("Page size must be between 1 and {MAX_PAGE_SIZE}")));
        }
        let page = page.unwrap_or(0);
        if u64::from(page) * u64::from(size) > 10_000_000 {
            return Err(ValidationError::new("page", "Page is out of range"));
        }
        Ok(Self { page, size })
    }

    pub fn offset(&self) -> i64 {
        i64::from(self.page) * i64::from(self.size)
    }
}

/// One page of a list, with the total number of matches.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub request: PageRequest,
    pub total: i64,
}

impl<T> Page<T> {
    pub fn total_pages(&self) -> i64 {
        let size = i64::from(self.request.size);
        (self.total + size - 1) / size
    }

    pub fn has_next(&self) -> bool {
        i64::from(self.request.page) + 1 < self.total_pages()
    }

    pub fn has_previous(&self) -> bool {
        self.request.page > 0
    }
}
