//! A file written down as it arrives: in memory while it is small, then in
//! a temporary file.

use std::io;

use bytes::{Bytes, BytesMut};
use tokio::io::AsyncWriteExt as _;

use super::file::File;

/// Files up to this many bytes stay in memory; larger ones go to a
/// temporary file as they arrive.
pub const FILE_MEMORY_THRESHOLD: usize = 64 * 1024;

/// The bytes of one file received so far.
pub(crate) struct Spool {
    memory: BytesMut,
    disk: Option<(tokio::fs::File, tempfile::TempPath)>,
    size: u64,
}

impl Spool {
    pub(crate) fn new() -> Self {
        Spool {
            memory: BytesMut::new(),
            disk: None,
            size: 0,
        }
    }

    /// Bytes received so far.
    pub(crate) fn size(&self) -> u64 {
        self.size
    }

    /// Adds a chunk; the first one past the threshold moves everything to
    /// a temporary file.
    pub(crate) async fn write(&mut self, chunk: &Bytes) -> io::Result<()> {
        self.size += chunk.len() as u64;
        if let Some((file, _)) = &mut self.disk {
            return file.write_all(chunk).await;
        }
        if self.memory.len() + chunk.len() <= FILE_MEMORY_THRESHOLD {
            self.memory.extend_from_slice(chunk);
            return Ok(());
        }
        let temp = tokio::task::spawn_blocking(tempfile::NamedTempFile::new)
            .await
            .map_err(io::Error::other)??;
        let (file, path) = temp.into_parts();
        let mut file = tokio::fs::File::from_std(file);
        file.write_all(&self.memory).await?;
        file.write_all(chunk).await?;
        self.memory = BytesMut::new();
        self.disk = Some((file, path));
        Ok(())
    }

    /// The received file.
    pub(crate) async fn finish(
        self,
        file_name: Option<String>,
        media_type: String,
    ) -> io::Result<File> {
        match self.disk {
            None => Ok(File::in_memory(file_name, media_type, self.memory.freeze())),
            Some((mut file, path)) => {
                // tokio's file writes in the background: wait for the last.
                file.flush().await?;
                drop(file);
                Ok(File::on_disk(file_name, media_type, self.size, path))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn small_files_stay_in_memory_and_large_ones_go_to_disk() {
        let mut small = Spool::new();
        small.write(&Bytes::from_static(b"hello")).await.unwrap();
        let small = small.finish(None, "text/plain".into()).await.unwrap();
        assert!(small.is_in_memory());
        assert_eq!(small.bytes().await.unwrap(), "hello");

        let mut large = Spool::new();
        let chunk = Bytes::from(vec![7u8; FILE_MEMORY_THRESHOLD / 2 + 1]);
        for _ in 0..3 {
            large.write(&chunk).await.unwrap();
        }
        let large = large
            .finish(Some("a.bin".into()), "application/octet-stream".into())
            .await
            .unwrap();
        assert!(!large.is_in_memory());
        assert_eq!(large.size(), 3 * chunk.len() as u64);
        let bytes = large.bytes().await.unwrap();
        assert_eq!(bytes.len(), 3 * chunk.len());
        assert!(bytes.iter().all(|byte| *byte == 7));
    }
}
