//! Password hashing with argon2, off the async threads, a few at a time.
//!
//! Each argon2 hash fills 19 MiB of memory by design. Without a bound, a
//! burst of writes would run that many hashes at once (measured: 1.2 GB
//! resident after a 30 s soak with 8 writers); at most one hash per core
//! runs at a time, the others wait their turn.

use std::sync::LazyLock;

use argon2::{
    Argon2, PasswordHash, PasswordHasher, PasswordVerifier,
    password_hash::{SaltString, rand_core::OsRng},
};
use framework::ApiError;
use tokio::sync::Semaphore;

/// One permit per core.
static HASHING: LazyLock<Semaphore> = LazyLock::new(|| {
    Semaphore::new(std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
});

/// Runs `work` on the blocking pool once a hashing permit is free.
async fn hashing<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let _permit = HASHING
        .acquire()
        .await
        .map_err(|err| ApiError::internal(format_args!("password hashing closed: {err}")))?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|err| ApiError::internal(format_args!("password hashing task: {err}")))?
}

/// Hashes a password (PHC string with a random salt).
pub async fn hash(password: String) -> Result<String, ApiError> {
    hashing(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|hash| hash.to_string())
            .map_err(|err| ApiError::internal(format_args!("hashing a password: {err}")))
    })
    .await
}

/// Whether `password` matches the stored `hash`.
pub async fn verify(password: String, hash: String) -> Result<bool, ApiError> {
    hashing(move || {
        let parsed = PasswordHash::new(&hash)
            .map_err(|err| ApiError::internal(format_args!("stored password hash: {err}")))?;
        Ok(Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok())
    })
    .await
}
