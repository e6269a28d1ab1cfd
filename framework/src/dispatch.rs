//! The future that answers one request: ready at once when routing refuses
//! it, otherwise the handler's own future, with a panic turned into a 500.
//! Routes without a body get no future of the framework's around the
//! handler's, and a route's future of at most 64 bytes (a handler without
//! inputs) is kept in this one ([`RouteFuture`]): no allocation at all; a
//! larger one is boxed. The future is polled in the request's tracing
//! span, which gets the status, and counts the answer when the app has
//! metrics (a streamed answer once its body has ended). It hands the answer
//! to an [`AnswerHook`]: the door through which the server (`server/`) sees
//! answers on its own connections, resolved at compile time, so that hyper
//! gets this future with no other around it and the app knows nothing of
//! connections.

use std::{
    any::Any,
    convert::Infallible,
    future::Future,
    panic::{AssertUnwindSafe, catch_unwind},
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
};

#[cfg(feature = "askama")]
use crate::response::html_headers::{HtmlPage, PageHeaders};
use crate::{
    body::Response,
    describe::RouteMeta,
    error::{ApiError, ErrorAnswers, answer_error, refusal},
    observe::Observed,
    route::RouteFuture,
};

/// What whoever serves a request does with its answer once it is ready,
/// before hyper sends it: the framework's server counts the request and
/// adds `Connection: close` while it drains (`server/service.rs`). An app
/// called as a tower service has no hook (`()`).
///
/// Public only because [`ResponseFuture`] names it; not re-exported.
pub trait AnswerHook: Send + Unpin + 'static {
    /// Called once, with the answer, when it is ready.
    fn answered(self, response: &mut Response);
}

/// No hook: the app is called as a tower service or by [`App::handle`].
///
/// [`App::handle`]: crate::App::handle
impl AnswerHook for () {
    fn answered(self, _response: &mut Response) {}
}

pin_project_lite::pin_project! {
    /// Answers one request; see [`App::handle`](crate::App::handle). `H` is
    /// what the server serving it does with the answer (`AnswerHook`, a
    /// crate-internal door; `()` when the app is called as a tower
    /// service).
    #[must_use = "futures do nothing unless polled"]
    pub struct ResponseFuture<H = ()> {
        #[pin]
        state: State,
        // Answering `HEAD`: the body is left out, its length kept.
        head: bool,
        // The request's span; `None` when no subscriber wants it, so that
        // a request without tracing costs no span work at all.
        span: Option<tracing::Span>,
        // Counting for metrics; `None` when the app has none.
        observed: Option<Observed>,
        // What the server does with the answer; taken when it is ready.
        hook: Option<H>,
        // The app's error contract and headers of HTML pages.
        answers: Option<Arc<AnswerRules>>,
    }
}

/// What is recorded of a request besides its answer.
pub(crate) struct Records<H> {
    pub(crate) span: Option<tracing::Span>,
    pub(crate) observed: Option<Observed>,
    pub(crate) hook: H,
    pub(crate) answers: Option<Arc<AnswerRules>>,
}

/// What an app does to every answer once it is made: its error contract
/// writes error answers' bodies, and its HTML pages get its headers. One
/// pointer per request, `None` when the app has neither (so that an app
/// without them moves and clones nothing more per request for them).
pub(crate) struct AnswerRules {
    /// The error contract; `None` for the problem document.
    errors: ErrorAnswers,
    /// The headers of HTML pages; `None` for those `Html` sets.
    #[cfg(feature = "askama")]
    pages: Option<PageHeaders>,
}

impl AnswerRules {
    /// The rules of an app, `None` when it has neither.
    #[cfg(feature = "askama")]
    pub(crate) fn new(errors: ErrorAnswers, pages: Option<PageHeaders>) -> Option<Arc<Self>> {
        (errors.is_some() || pages.is_some()).then(|| Arc::new(AnswerRules { errors, pages }))
    }

    /// The rules of an app, `None` when it has no error contract (without
    /// templates there are no pages).
    #[cfg(not(feature = "askama"))]
    pub(crate) fn new(errors: ErrorAnswers) -> Option<Arc<Self>> {
        errors.is_some().then(|| Arc::new(AnswerRules { errors }))
    }
}

pin_project_lite::pin_project! {
    #[project = StateProjection]
    enum State {
        // Boxed: an answer known at once is the rare path (a refusal, a
        // panic), and the box keeps every request's future small, which
        // hyper and each service layer move by value.
        Ready { response: Option<Box<Response>> },
        // The route's future, kept here (pinned) when it is small.
        Running {
            #[pin]
            future: RouteFuture,
            meta: &'static RouteMeta,
        },
    }
}

impl<H: AnswerHook> ResponseFuture<H> {
    /// An answer known at once (no handler runs).
    pub(crate) fn ready(response: Response, records: Records<H>) -> Self {
        ResponseFuture {
            state: State::Ready {
                response: Some(Box::new(response)),
            },
            head: false,
            span: records.span,
            observed: records.observed,
            hook: Some(records.hook),
            answers: records.answers,
        }
    }

    /// Runs `start` (which may panic, as extractors run in it) in the
    /// request's span, and then the future it returns; answers without the
    /// body when `head`.
    pub(crate) fn start(
        meta: &'static RouteMeta,
        head: bool,
        records: Records<H>,
        start: impl FnOnce() -> RouteFuture,
    ) -> Self {
        let Records {
            span,
            observed,
            hook,
            answers,
        } = records;
        let started = match &span {
            Some(span) => span.in_scope(|| catch_unwind(AssertUnwindSafe(start))),
            None => catch_unwind(AssertUnwindSafe(start)),
        };
        let state = match started {
            Ok(future) => State::Running { future, meta },
            Err(panic) => {
                let _entered = span.as_ref().map(tracing::Span::enter);
                State::Ready {
                    response: Some(Box::new(panicked(meta, &*panic))),
                }
            }
        };
        ResponseFuture {
            state,
            head,
            span,
            observed,
            hook: Some(hook),
            answers,
        }
    }
}

impl<H> std::fmt::Debug for ResponseFuture<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResponseFuture").finish_non_exhaustive()
    }
}

impl<H: AnswerHook> Future for ResponseFuture<H> {
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let mut response = match &*this.span {
            Some(span) => {
                let _entered = span.enter();
                std::task::ready!(this.state.poll_answer(cx))
            }
            None => std::task::ready!(this.state.poll_answer(cx)),
        };
        // The answer is changed in place, and replaced only where a rule
        // applies: a response moved through a function, or through
        // `let answer = if .. { f(answer) } else { answer }`, costs a copy
        // of it on every request.
        let answers = this.answers.as_deref();
        if response.body().is_deferred() {
            let contract = answers.and_then(|answers| answers.errors.as_deref());
            response = answer_error(response, contract);
        }
        #[cfg(feature = "askama")]
        if let Some(pages) = answers.and_then(|answers| answers.pages.as_ref())
            && response.extensions().get::<HtmlPage>().is_some()
        {
            pages.apply(response.headers_mut());
        }
        let status = response.status();
        if let Some(span) = &*this.span {
            span.record("status", status.as_u16());
        }
        if *this.head {
            response = without_body(response);
        }
        if let Some(observed) = this.observed.take() {
            if response.body().is_stream() {
                response = observed.finish_streamed(response);
            } else {
                observed.finish(status);
            }
        }
        if let Some(hook) = this.hook.take() {
            hook.answered(&mut response);
        }
        Poll::Ready(Ok(response))
    }
}

/// The response to `HEAD`: the same head, with the `Content-Length` the
/// body had, and no body.
fn without_body(response: Response) -> Response {
    let (mut parts, body) = response.into_parts();
    if let Some(length) = http_body::Body::size_hint(&body).exact()
        && !parts.headers.contains_key(http::header::CONTENT_LENGTH)
    {
        parts.headers.insert(
            http::header::CONTENT_LENGTH,
            http::HeaderValue::from(length),
        );
    }
    http::Response::from_parts(parts, crate::Body::empty())
}

impl State {
    #[inline]
    fn poll_answer(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Response> {
        match self.as_mut().project() {
            StateProjection::Ready { response } => Poll::Ready(response.take().map_or_else(
                || {
                    ApiError::internal("a response future was polled after it completed")
                        .into_response()
                },
                |response| *response,
            )),
            StateProjection::Running { future, meta } => {
                let meta: &RouteMeta = meta;
                match catch_unwind(AssertUnwindSafe(|| future.poll(cx))) {
                    Ok(poll) => poll,
                    Err(panic) => {
                        let response = panicked(meta, &*panic);
                        self.set(State::Ready { response: None });
                        Poll::Ready(response)
                    }
                }
            }
        }
    }
}

/// Logs a handler's panic and answers `500 internal_error`.
fn panicked(meta: &RouteMeta, panic: &(dyn Any + Send)) -> Response {
    let reason = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a non-string payload");
    tracing::error!(route = %meta.qualified_name(), %reason, "handler panicked");
    refusal::INTERNAL_ERROR
        .error("the server failed to handle this request")
        .into_response()
}
