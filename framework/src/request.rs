//! The request as extractors see it: head, collected body and path values.

use bytes::Bytes;
use http::request::Parts;

/// One request after routing: its head, its body (collected only for routes
/// that read it) and the percent-decoded values of its path parameters, in
/// the order of [`RouteMeta::path_params`](crate::RouteMeta::path_params).
///
/// Extractors ([`FromRequest`](crate::FromRequest)) read from it.
#[derive(Debug)]
pub struct RequestContext {
    parts: Parts,
    body: Bytes,
    path_values: Vec<String>,
}

impl RequestContext {
    pub(crate) fn new(parts: Parts, body: Bytes, path_values: Vec<String>) -> Self {
        RequestContext {
            parts,
            body,
            path_values,
        }
    }

    /// The request line and headers.
    pub fn parts(&self) -> &Parts {
        &self.parts
    }

    /// The request headers.
    pub fn headers(&self) -> &http::HeaderMap {
        &self.parts.headers
    }

    /// The collected body (empty for routes that do not read one).
    pub fn body(&self) -> &Bytes {
        &self.body
    }

    /// Takes the collected body, leaving it empty.
    pub fn take_body(&mut self) -> Bytes {
        std::mem::take(&mut self.body)
    }

    /// The decoded value of the `index`-th path parameter.
    pub fn path_value(&self, index: usize) -> Option<&str> {
        self.path_values.get(index).map(String::as_str)
    }
}
