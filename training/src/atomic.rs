//! Output files written whole or not at all.
//!
//! An [`AtomicFile`] writes into a temporary file beside its target and renames it over the
//! target on [`AtomicFile::commit`]: an interrupted run, a full disk or an error leaves the
//! previous file (or none) under the target name, never a part of the new one. The
//! temporary file is created with a random name and `O_EXCL` (the `tempfile` crate), so a
//! file or symbolic link planted under a predictable name is never written through, and it
//! is removed when the [`AtomicFile`] is dropped without being committed.
//!
//! A process that is killed by a signal runs no destructors: a program that wants the
//! temporary files removed then calls [`remove_unfinished`] from its signal handling (the
//! `mainline` binary does, on SIGINT, SIGTERM and SIGHUP).
//!
//! The temporary file is private to its owner (mode 0600) while it is written; on commit it
//! takes the mode the target would have had from `cp`: an existing target's own mode, or
//! for a new file 0666 less the process's umask (0644 under umask 022), so that the files
//! shared with other tools and users are readable as theirs are.
//!
//! Targets that are not regular files (`/dev/stdout`, `/dev/null`, a named pipe) cannot be
//! replaced by a rename; they are written directly. A symbolic link at the target is
//! replaced by the new file, not followed.

use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The temporary files of the [`AtomicFile`]s not yet committed or dropped, and whether
/// [`remove_unfinished`] has run (no more may then be created).
static UNFINISHED: Mutex<(Vec<PathBuf>, bool)> = Mutex::new((Vec::new(), false));

fn unfinished() -> std::sync::MutexGuard<'static, (Vec<PathBuf>, bool)> {
    UNFINISHED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes the temporary files of every [`AtomicFile`] not yet committed, and makes later
/// [`AtomicFile::create`] calls fail: for a process about to exit on a signal. Returns how
/// many files were removed.
pub fn remove_unfinished() -> usize {
    let mut guard = unfinished();
    guard.1 = true;
    let paths = std::mem::take(&mut guard.0);
    paths.iter().filter(|p| fs::remove_file(p).is_ok()).count()
}

/// A file written beside its target and renamed over it when complete. See the [module
/// documentation](self).
#[derive(Debug)]
pub struct AtomicFile {
    target: PathBuf,
    out: Option<Out>,
}

#[derive(Debug)]
enum Out {
    /// A temporary file beside the target.
    Temp(BufWriter<tempfile::NamedTempFile>),
    /// The target itself, which is not a regular file.
    Direct(BufWriter<File>),
}

impl AtomicFile {
    /// Starts writing `target`: creates a temporary file `.<name>.<random>.tmp` in the same
    /// directory.
    ///
    /// # Errors
    /// When the directory does not exist or is not writable (the error names neither: add
    /// the target's name when reporting it).
    pub fn create(target: impl AsRef<Path>) -> io::Result<Self> {
        Self::with_suffix(target, ".tmp")
    }

    /// As [`AtomicFile::create`], with the temporary file's name ending in `suffix` (for
    /// writers that choose a format by the extension, e.g. `".tmp.png"`).
    ///
    /// # Errors
    /// As [`AtomicFile::create`].
    pub fn with_suffix(target: impl AsRef<Path>, suffix: &str) -> io::Result<Self> {
        let target = target.as_ref().to_path_buf();
        if fs::metadata(&target).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            let file = fs::OpenOptions::new().write(true).open(&target)?;
            return Ok(AtomicFile {
                target,
                out: Some(Out::Direct(BufWriter::new(file))),
            });
        }
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut prefix = OsString::from(".");
        prefix.push(target.file_name().unwrap_or_else(|| "output".as_ref()));
        prefix.push(".");
        let mut guard = unfinished();
        if guard.1 {
            return Err(io::Error::new(
                io::ErrorKind::Interrupted,
                "the run is being stopped",
            ));
        }
        let temp = tempfile::Builder::new()
            .prefix(&prefix)
            .suffix(suffix)
            .rand_bytes(8)
            .tempfile_in(&dir)?;
        guard.0.push(temp.path().to_path_buf());
        Ok(AtomicFile {
            target,
            out: Some(Out::Temp(BufWriter::with_capacity(64 * 1024, temp))),
        })
    }

    /// The file that is being written: the temporary file, or the target itself when that
    /// is not a regular file. For writers that open a path themselves; the bytes written
    /// through it become the target's on [`AtomicFile::commit`].
    pub fn path(&self) -> &Path {
        match &self.out {
            Some(Out::Temp(w)) => w.get_ref().path(),
            _ => &self.target,
        }
    }

    /// The file this will become.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Flushes what was written and renames the temporary file over the target.
    ///
    /// # Errors
    /// When writing the last bytes or the rename fails; the temporary file is then removed
    /// and the target is left as it was.
    pub fn commit(mut self) -> io::Result<()> {
        match self.out.take() {
            Some(Out::Temp(w)) => {
                let temp = w.into_inner().map_err(io::IntoInnerError::into_error)?;
                let path = temp.path().to_path_buf();
                #[cfg(unix)]
                {
                    let mode = final_mode(&self.target, &path);
                    temp.as_file()
                        .set_permissions(mode)
                        .inspect_err(|_| forget(&path))?;
                }
                let result = temp.persist(&self.target).map(drop).map_err(|e| e.error);
                forget(&path);
                result
            }
            Some(Out::Direct(mut w)) => w.flush(),
            None => Ok(()),
        }
    }

    fn writer(&mut self) -> &mut dyn Write {
        match self.out.as_mut() {
            Some(Out::Temp(w)) => w,
            Some(Out::Direct(w)) => w,
            None => unreachable!("the writer is taken only by commit, which consumes self"),
        }
    }
}

/// The permissions a committed file gets: those of the regular file it replaces, otherwise
/// 0666 less the umask (what `open(2)` gives a new file, as `cp` and shells do).
#[cfg(unix)]
fn final_mode(target: &Path, temp: &Path) -> fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    let mode = match fs::symlink_metadata(target) {
        Ok(m) if m.is_file() => m.permissions().mode() & 0o7777,
        _ => 0o666 & !umask(temp.parent().unwrap_or(Path::new("."))),
    };
    fs::Permissions::from_mode(mode)
}

/// The process's umask: from `/proc/self/status` where the system has it (Linux), else
/// from the mode of a file created in `dir` with mode 0666 (it cannot be read without
/// setting it otherwise, and setting it would race with other threads creating files).
#[cfg(unix)]
fn umask(dir: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    let from_proc = fs::read_to_string("/proc/self/status").ok().and_then(|s| {
        s.lines()
            .find_map(|l| l.strip_prefix("Umask:"))
            .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
    });
    if let Some(mask) = from_proc {
        return mask & 0o777;
    }
    let probe = tempfile::Builder::new()
        .prefix(".umask.")
        .suffix(".tmp")
        .permissions(fs::Permissions::from_mode(0o666))
        .tempfile_in(dir);
    match probe.and_then(|f| f.as_file().metadata()) {
        Ok(m) => !m.permissions().mode() & 0o777,
        // NOTE: when even that fails, the file stays private (umask 077).
        Err(_) => 0o077,
    }
}

/// Drops `path` from the temporary files to remove on a signal.
fn forget(path: &Path) {
    let mut guard = unfinished();
    if let Some(i) = guard.0.iter().position(|p| p == path) {
        guard.0.swap_remove(i);
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer().write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer().write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer().flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some(Out::Temp(w)) = &self.out {
            forget(w.get_ref().path());
        }
        // The NamedTempFile removes the file when it is dropped after this.
    }
}

/// Writes `bytes` to `target` whole or not at all (see [`AtomicFile`]).
///
/// # Errors
/// As [`AtomicFile::create`], [`Write::write_all`] and [`AtomicFile::commit`].
pub fn write(target: impl AsRef<Path>, bytes: impl AsRef<[u8]>) -> io::Result<()> {
    let mut file = AtomicFile::create(target)?;
    file.write_all(bytes.as_ref())?;
    file.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_dropped_file_leaves_the_old_target_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("model.json");
        fs::write(&target, "old").unwrap();
        {
            let mut f = AtomicFile::create(&target).unwrap();
            f.write_all(b"half of the new").unwrap();
            assert_eq!(names(dir.path()).len(), 2);
        }
        assert_eq!(fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(names(dir.path()), ["model.json"]);
    }

    #[test]
    fn temporary_names_are_random_and_never_follow_a_planted_link() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a.txt");
        let a = AtomicFile::create(&target).unwrap();
        let b = AtomicFile::create(&target).unwrap();
        assert_ne!(a.path(), b.path());
        let name = a.path().file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.starts_with(".a.txt.") && name.ends_with(".tmp"),
            "{name}"
        );
        drop((a, b));
        // A symbolic link at the target is replaced, its target untouched.
        #[cfg(unix)]
        {
            let victim = dir.path().join("victim");
            fs::write(&victim, "keep").unwrap();
            std::os::unix::fs::symlink(&victim, &target).unwrap();
            write(&target, "new").unwrap();
            assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
            assert_eq!(fs::read_to_string(&target).unwrap(), "new");
            assert!(!fs::symlink_metadata(&target).unwrap().is_symlink());
        }
    }

    #[test]
    fn a_target_that_is_not_a_regular_file_is_written_directly() {
        if Path::new("/dev/null").exists() {
            write("/dev/null", "discarded").unwrap();
            assert!(!fs::metadata("/dev/null").unwrap().is_file());
        }
        if Path::new("/dev/full").exists() {
            let err = write("/dev/full", vec![b'x'; 1 << 17]).unwrap_err();
            assert_eq!(err.raw_os_error(), Some(28), "{err}"); // ENOSPC
        }
    }
}

/// The examples of this module's documentation, run as tests (the module is internal to
/// the crate, where documentation tests cannot reach).
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_atomic() -> Result<(), Box<dyn std::error::Error>> {
        use std::io::Write;
        let dir = tempfile::tempdir()?;
        let target = dir.path().join("out.txt");
        let mut file = crate::atomic::AtomicFile::create(&target)?;
        file.write_all(b"all or nothing\n")?;
        assert!(!target.exists()); // not there until committed
        file.commit()?;
        assert_eq!(std::fs::read_to_string(&target)?, "all or nothing\n");
        assert_eq!(std::fs::read_dir(dir.path())?.count(), 1); // no temporary file left
        Ok(())
    }
}
