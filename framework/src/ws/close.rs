//! Close codes (RFC 6455, section 7.4) and the reasons the server gives.

/// The codes with which the server closes a socket, and why.
///
/// ```
/// use framework::ws::close_code;
/// assert_eq!(close_code::INVALID_MESSAGE, 1007);
/// ```
pub mod close_code {
    /// The handler is done with the socket (or the client closed it).
    pub const NORMAL: u16 = 1000;
    /// The server is shutting down (reason `shutting_down`) or the client
    /// was silent for the idle timeout (reason `idle_timeout`).
    pub const GOING_AWAY: u16 = 1001;
    /// The client broke the protocol (a frame that is not WebSocket).
    pub const PROTOCOL_ERROR: u16 = 1002;
    /// A message is not JSON of the route's client message type, or not
    /// UTF-8; the reason is the problem's detail: the first issue with its
    /// `$input` path, and how many more there are.
    pub const INVALID_MESSAGE: u16 = 1007;
    /// A message is larger than the route's
    /// [`max_message_size`](crate::ws::Limits::max_message_size).
    pub const MESSAGE_TOO_BIG: u16 = 1009;
    /// The handler panicked.
    pub const INTERNAL_ERROR: u16 = 1011;
}

/// The longest reason a close frame holds, in bytes.
pub const MAX_REASON: usize = 123;

/// A close code with its reason, cut to [`MAX_REASON`] bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CloseReason {
    pub(crate) code: u16,
    pub(crate) reason: String,
}

impl CloseReason {
    pub(crate) fn new(code: u16, reason: &str) -> Self {
        let mut end = reason.len().min(MAX_REASON);
        while !reason.is_char_boundary(end) {
            end -= 1;
        }
        CloseReason {
            code,
            reason: reason[..end].to_owned(),
        }
    }
}

/// Whether an endpoint may send `code` (RFC 6455, 7.4.1 and 7.4.2).
pub(crate) fn may_send(code: u16) -> bool {
    matches!(code, 1000..=1003 | 1007..=1009 | 1011 | 3000..=4999)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_cut_at_a_character() {
        let long = "é".repeat(100);
        let cut = CloseReason::new(1007, &long);
        assert_eq!(cut.reason.len(), 122);
        assert!(long.starts_with(&cut.reason));
        assert_eq!(CloseReason::new(1000, "done").reason, "done");
    }

    #[test]
    fn reserved_codes_are_not_sent() {
        for code in [999, 1004, 1005, 1006, 1010, 1015, 2999, 5000] {
            assert!(!may_send(code), "{code}");
        }
        for code in [1000, 1001, 1008, 1011, 3000, 4999] {
            assert!(may_send(code), "{code}");
        }
    }
}
