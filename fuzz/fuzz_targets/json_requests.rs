//! Arbitrary bytes as the JSON bodies the API accepts, then the domain's parsing of their fields:
//! a value or a validation error with a message, never a panic.
#![no_main]

use gifshelf_domain::gif::{Description, TagName, Title};
use gifshelf_domain::user::{Email, Password, Registration, Username};
use gifshelf_http::dto::{
    ChangePasswordRequest, GifUploadData, GoogleLoginRequest, LoginRequest, RegisterRequest, UpdateGifRequest,
    UpdateProfileRequest,
};
use libfuzzer_sys::fuzz_target;

fn form(title: &str, description: &str, tags: &[String]) {
    for result in [Title::parse(title).map(|_| ()), Description::parse(description).map(|_| ()), TagName::parse_list(tags).map(|_| ())] {
        if let Err(err) = result {
            assert!(!err.message.is_empty());
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(r) = serde_json::from_slice::<RegisterRequest>(data) {
        if let Err(err) = Registration::parse(&r.username, &r.email, &r.password, &r.confirm_password) {
            assert!(!err.message.is_empty());
        }
    }
    if let Ok(r) = serde_json::from_slice::<LoginRequest>(data) {
        let _ = Username::parse(&r.username);
        let _ = Password::parse(&r.password, "password");
    }
    if let Ok(r) = serde_json::from_slice::<UpdateProfileRequest>(data) {
        let _ = Username::parse(&r.username);
        if let Some(email) = r.email.as_deref() {
            let _ = Email::parse(email);
        }
    }
    if let Ok(r) = serde_json::from_slice::<ChangePasswordRequest>(data) {
        let _ = Password::parse_confirmed(&r.new_password, &r.confirm_password, "newPassword", "New passwords do not match");
    }
    if let Ok(r) = serde_json::from_slice::<GifUploadData>(data) {
        form(&r.title, &r.description, &r.tags);
    }
    if let Ok(r) = serde_json::from_slice::<UpdateGifRequest>(data) {
        form(&r.title, &r.description, &r.tags);
    }
    let _ = serde_json::from_slice::<GoogleLoginRequest>(data);
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = TagName::parse(text);
        let _ = Email::parse(text);
        let _ = gifshelf_domain::gif::PageRequest::new(text.len().try_into().ok(), Some(12));
    }
});
