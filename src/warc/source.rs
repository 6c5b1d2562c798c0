//! The decompressed bytes of a WARC file, one gzip member at a time.
//!
//! A WARC file is either plain or gzip-compressed, usually with every record in a gzip
//! member of its own (as Common Crawl writes them), so that a reader can start at any
//! record. [`Source`] decompresses member by member (its own gzip framing over flate2's raw
//! inflate) and tells the record parser where a member ends, which is where a record that
//! went wrong lets the reader start again. A plain file is one "member".
//!
//! A member whose compressed bytes fit in the buffer (up to [`ONE_SHOT_BYTES`]) is
//! decompressed in one call by libdeflate into a buffer of the size its trailer gives,
//! which [`Source::read`] then hands over whole: about twice as fast as streaming inflate
//! for Common Crawl's small members. Where the member ends is not known before it is
//! decompressed; the candidate is the next gzip header in the buffer (or the end of the
//! input), and the result is taken only when libdeflate finds a complete member there
//! whose checksum is right and whose length is the one in the last 4 bytes before that
//! header. Anything else (a member too long, a header-like byte sequence inside the
//! compressed data, damage) is decompressed again by streaming inflate, which reports it.
//!
//! After corrupt compressed data, [`Source::resync`] looks for the next gzip header from
//! just after the start of the broken member, not from where inflate noticed the damage:
//! a member cut short makes inflate read on into the next member's bytes, so the next
//! header usually lies before the point of failure. The compressed bytes of the current
//! member are kept for that, up to [`RETAIN_BYTES`].

use std::io::{self, Read};

use flate2::{Crc, Decompress, FlushDecompress, Status};
use libdeflater::Decompressor;

use crate::gzip::{MAGIC, is_gzip};

/// Compressed bytes read from the input at once.
const READ_BYTES: usize = 256 * 1024;

/// Compressed bytes of the current member kept for [`Source::resync`]. A member longer
/// than this is searched for the next header from the point of failure on.
pub const RETAIN_BYTES: usize = 16 * 1024 * 1024;

/// Compressed bytes of a member read ahead to decompress it in one call; a longer member
/// is streamed.
pub const ONE_SHOT_BYTES: usize = 4 * 1024 * 1024;

/// Most given-back buffers kept for later members, and most bytes they may hold.
const SPARE_COUNT: usize = 8;
const SPARE_BYTES: usize = 2 * 1024 * 1024;
/// Smallest member decompressed into a given-back buffer.
const SPARE_MIN: usize = 16 * 1024;

/// Longest gzip member header accepted (file name and comment included).
const MAX_GZIP_HEADER: usize = 64 * 1024;

/// What went wrong while decompressing.
#[derive(Debug)]
pub enum Fault {
    /// Reading the input failed.
    Io(io::Error),
    /// The compressed data is damaged; the message says how.
    Corrupt(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Io(e) => write!(f, "{e}"),
            Fault::Corrupt(m) => write!(f, "corrupt gzip data: {m}"),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Between members: the next call to `next_member` starts one.
    Between,
    /// Inside a member's deflate data.
    Body,
    /// The whole member is decompressed in `whole` (its checksum was right), to be handed
    /// out by the next read.
    Whole,
    /// The current member ended (its checksum was right).
    Ended,
    /// The current member is broken; `resync` or `next_member` moves on.
    Broken,
}

/// Decompressed bytes, member by member.
pub struct Source<R> {
    inner: R,
    eof: bool,
    /// Compressed input; `buf[pos..]` is not read yet.
    buf: Vec<u8>,
    pos: usize,
    /// Offset in the input of `buf[0]`.
    base: u64,
    /// Where in `buf` the current member starts, while it is kept.
    member: Option<usize>,
    /// Offset in the input of the current member.
    member_offset: u64,
    gzip: bool,
    inflate: Decompress,
    crc: Crc,
    /// One-shot decompression (made at the first member that fits), its output, and the
    /// most decompressed bytes a member may have to be decompressed that way.
    deflater: Option<Decompressor>,
    whole: Vec<u8>,
    /// Buffers given back by [`Source::recycle`]: their initialised length is reused, so
    /// that a member's output buffer is not zeroed again before libdeflate writes it.
    spares: Vec<Vec<u8>>,
    one_shot_max: usize,
    state: State,
    /// Damage found after some bytes were decompressed: reported at the next read, so
    /// that the bytes before it (a record header, say) are seen first.
    fault: Option<Fault>,
}

impl<R: Read> Source<R> {
    /// A source over `inner`; gzip is recognised by its magic bytes.
    pub fn new(inner: R) -> Self {
        let mut s = Source {
            inner,
            eof: false,
            buf: Vec::with_capacity(READ_BYTES),
            pos: 0,
            base: 0,
            member: None,
            member_offset: 0,
            gzip: false,
            inflate: Decompress::new(false),
            crc: Crc::new(),
            deflater: None,
            whole: Vec::new(),
            spares: Vec::new(),
            one_shot_max: RETAIN_BYTES,
            state: State::Between,
            fault: None,
        };
        // An input error here surfaces again at the first read.
        while s.buf.len() < 2 && !s.eof {
            if s.refill().is_err() {
                break;
            }
        }
        // NOTE: a gzip file whose first bytes are damaged is still a gzip file: when the
        // input starts neither like gzip nor like WARC but a gzip member header follows, the
        // first member is reported broken and reading goes on from that header.
        let plain = {
            let start = s.buf.iter().position(|b| !b.is_ascii_whitespace());
            start.is_some_and(|i| s.buf[i..].starts_with(b"WARC/"))
        };
        s.gzip = is_gzip(&s.buf) || (!plain && find_member(&s.buf).is_some());
        s
    }

    /// Decompresses a member in one piece only when it holds at most `bytes` (default
    /// [`RETAIN_BYTES`]): what a member may take in memory at once. Longer ones are
    /// streamed.
    pub fn set_one_shot_max(&mut self, bytes: usize) {
        self.one_shot_max = bytes;
    }

    /// Whether the input is gzip-compressed.
    pub fn is_gzip(&self) -> bool {
        self.gzip
    }

    /// Takes back a buffer that an earlier [`Source::read`] filled, to decompress a later
    /// member into; keeps the longest [`SPARE_COUNT`] within [`SPARE_BYTES`].
    pub fn recycle(&mut self, buf: Vec<u8>) {
        self.spares.push(buf);
        while self.spares.len() > SPARE_COUNT
            || self.spares.iter().map(Vec::capacity).sum::<usize>() > SPARE_BYTES
        {
            let shortest = (0..self.spares.len()).min_by_key(|&i| self.spares[i].len());
            if let Some(i) = shortest {
                self.spares.swap_remove(i);
            }
        }
    }

    /// Whether damage was found in the current member past the bytes read so far: the
    /// next read reports it.
    pub fn damage_ahead(&self) -> bool {
        self.fault.is_some()
    }

    /// Offset in the (compressed) input where the current member starts.
    pub fn member_offset(&self) -> u64 {
        self.member_offset
    }

    /// Compressed bytes read so far.
    pub fn position(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Reads more compressed input into `buf`, dropping what is no longer needed.
    fn refill(&mut self) -> io::Result<()> {
        let keep_from = match self.member {
            Some(m) if self.pos - m <= RETAIN_BYTES => m,
            _ => {
                self.member = None;
                self.pos
            }
        };
        if keep_from > 0 && keep_from >= self.buf.len() / 2 {
            self.buf.drain(..keep_from);
            self.base += keep_from as u64;
            self.pos -= keep_from;
            if let Some(m) = &mut self.member {
                *m -= keep_from;
            }
        }
        let len = self.buf.len();
        self.buf.resize(len + READ_BYTES, 0);
        let n = loop {
            match self.inner.read(&mut self.buf[len..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.buf.truncate(len);
                    return Err(e);
                }
            }
        };
        self.buf.truncate(len + n);
        if n == 0 {
            self.eof = true;
        }
        Ok(())
    }

    /// Starts the next member. Returns `Ok(false)` at the end of the input.
    ///
    /// # Errors
    /// A read error, or a member header that is not gzip (the source is then broken;
    /// [`Source::resync`] looks for the next member).
    pub fn next_member(&mut self) -> Result<bool, Fault> {
        if let Some(f) = self.fault.take() {
            return Err(f);
        }
        if !self.gzip {
            // A plain file is one member.
            return match self.state {
                State::Between => {
                    self.state = State::Body;
                    self.member_offset = self.position();
                    Ok(true)
                }
                _ => Ok(false),
            };
        }
        if self.state == State::Whole {
            // A member decompressed in one piece and not read: it was checked already.
            self.state = State::Ended;
        }
        if self.state == State::Body {
            // The rest of a member nobody read: skip it, checking it on the way.
            let mut sink = Vec::with_capacity(64 * 1024);
            while self.read(&mut sink, 64 * 1024)? > 0 {
                sink.clear();
            }
        }
        loop {
            if self.pos < self.buf.len() || self.eof {
                break;
            }
            self.refill().map_err(Fault::Io)?;
        }
        if self.pos == self.buf.len() {
            self.state = State::Ended;
            return Ok(false);
        }
        self.member = Some(self.pos);
        self.member_offset = self.position();
        self.state = State::Broken;
        let header = loop {
            match gzip_header(&self.buf[self.pos..]) {
                Ok(Some(n)) => break n,
                Ok(None) if self.eof => {
                    return Err(Fault::Corrupt(
                        "the file ends inside its header (it is cut short)".into(),
                    ));
                }
                Ok(None) => self.refill().map_err(Fault::Io)?,
                Err(m) => return Err(Fault::Corrupt(m.into())),
            }
        };
        self.pos += header;
        self.inflate.reset(false);
        self.crc.reset();
        self.state = State::Body;
        self.one_shot().map_err(Fault::Io)?;
        Ok(true)
    }

    /// Decompresses the current member in one call when its compressed bytes are (or can
    /// be read) in the buffer; leaves it to streaming inflate otherwise. See the module
    /// documentation.
    fn one_shot(&mut self) -> io::Result<()> {
        let end = loop {
            let Some(start) = self.member else {
                return Ok(());
            };
            if let Some(i) = find_member(&self.buf[self.pos..]) {
                break self.pos + i;
            }
            if self.eof {
                break self.buf.len();
            }
            if self.buf.len() - start >= ONE_SHOT_BYTES.min(RETAIN_BYTES) {
                return Ok(());
            }
            self.refill()?;
        };
        let Some(start) = self.member else {
            return Ok(());
        };
        if end < self.pos + 8 {
            return Ok(());
        }
        let t = &self.buf[end - 4..end];
        let size = u32::from_le_bytes([t[0], t[1], t[2], t[3]]) as usize;
        // NOTE: deflate expands by at most 1032 times: a larger size is damage, not a
        // reason to allocate it.
        if size > self.one_shot_max || size / 1032 > end - start {
            return Ok(());
        }
        // NOTE: libdeflate overwrites every byte it reports; the old contents do not matter,
        // so the shortest given-back buffer that is long enough is taken, and not zeroed.
        // (Growing a shorter one would copy its old contents as well as zero the rest; a
        // small member, a request or metadata record, would shorten a long one for little.)
        if self.whole.len() < size && size >= SPARE_MIN {
            let fits = (0..self.spares.len())
                .filter(|&i| self.spares[i].len() >= size)
                .min_by_key(|&i| self.spares[i].len());
            if let Some(i) = fits {
                self.whole = self.spares.swap_remove(i);
            }
        }
        if self.whole.len() < size {
            self.whole.resize(size, 0);
        }
        self.whole.truncate(size);
        let deflater = self.deflater.get_or_insert_with(Decompressor::new);
        // NOTE: libdeflate checks the trailer where the deflate data ends; a size equal to
        // the 4 bytes before the candidate end says the member ends there too.
        if let Ok(n) = deflater.gzip_decompress(&self.buf[start..end], &mut self.whole)
            && n == size
        {
            self.pos = end;
            self.state = State::Whole;
        }
        Ok(())
    }

    /// Appends about `want` decompressed bytes of the current member to `out` (all of it
    /// when it was decompressed in one piece). Returns how many; 0 when the member has
    /// ended (and its checksum was right).
    ///
    /// # Errors
    /// A read error, or damaged compressed data (the member is then broken).
    pub fn read(&mut self, out: &mut Vec<u8>, want: usize) -> Result<usize, Fault> {
        if let Some(f) = self.fault.take() {
            return Err(f);
        }
        let start = out.len();
        match self.inflate_into(out, want) {
            Err(f) if out.len() > start => {
                self.fault = Some(f);
                Ok(out.len() - start)
            }
            r => r,
        }
    }

    fn inflate_into(&mut self, out: &mut Vec<u8>, want: usize) -> Result<usize, Fault> {
        match self.state {
            State::Body => {}
            State::Whole => {
                self.state = State::Ended;
                let n = self.whole.len();
                if out.is_empty() {
                    // The caller's buffer, empty, keeps the next member's output.
                    std::mem::swap(out, &mut self.whole);
                } else {
                    out.extend_from_slice(&self.whole);
                }
                return Ok(n);
            }
            State::Ended | State::Between => return Ok(0),
            State::Broken => return Err(Fault::Corrupt("read after an error".into())),
        }
        if !self.gzip {
            if self.pos == self.buf.len() {
                if self.eof {
                    self.state = State::Ended;
                    return Ok(0);
                }
                self.refill().map_err(Fault::Io)?;
            }
            let n = (self.buf.len() - self.pos).min(want);
            out.extend_from_slice(&self.buf[self.pos..self.pos + n]);
            self.pos += n;
            if n == 0 {
                self.state = State::Ended;
            }
            return Ok(n);
        }
        let start = out.len();
        out.reserve(want);
        loop {
            if self.pos == self.buf.len() && !self.eof {
                self.refill().map_err(Fault::Io)?;
            }
            let (in_before, out_before) = (self.inflate.total_in(), self.inflate.total_out());
            let flush = if self.eof {
                FlushDecompress::Finish
            } else {
                FlushDecompress::None
            };
            let status = self
                .inflate
                .decompress_vec(&self.buf[self.pos..], out, flush)
                .map_err(|e| {
                    self.state = State::Broken;
                    Fault::Corrupt(inflate_error(&e))
                })?;
            self.pos += (self.inflate.total_in() - in_before) as usize;
            let produced = (self.inflate.total_out() - out_before) as usize;
            if status == Status::StreamEnd {
                self.crc.update(&out[start..]);
                self.trailer()?;
                return Ok(out.len() - start);
            }
            if self.pos == self.buf.len() && self.eof && out.len() < out.capacity() {
                // All the input is read, there was room for more output and the deflate
                // data has not ended: the member is cut short. Said now, with the bytes
                // it gave (the last of which may be garbled), so that a record read from
                // them is reported as the damage, not as a bad record and then the damage.
                self.state = State::Broken;
                return Err(Fault::Corrupt(
                    "the file ends inside it (it is cut short)".into(),
                ));
            }
            if produced > 0 && out.len() - start >= want.min(1) {
                self.crc.update(&out[start..]);
                return Ok(out.len() - start);
            }
            if out.len() == out.capacity() {
                out.reserve(want.max(1));
            }
            if produced == 0 && self.pos == self.buf.len() && self.eof {
                self.state = State::Broken;
                return Err(Fault::Corrupt(
                    "the file ends inside it (it is cut short)".into(),
                ));
            }
        }
    }

    /// Reads and checks the 8-byte trailer after a member's deflate data.
    fn trailer(&mut self) -> Result<(), Fault> {
        while self.buf.len() - self.pos < 8 && !self.eof {
            self.refill().map_err(Fault::Io)?;
        }
        self.state = State::Broken;
        let t = self.buf.get(self.pos..self.pos + 8).ok_or_else(|| {
            Fault::Corrupt("the file ends inside its trailer (it is cut short)".into())
        })?;
        let crc = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
        let size = u32::from_le_bytes([t[4], t[5], t[6], t[7]]);
        if crc != self.crc.sum() {
            return Err(Fault::Corrupt("its CRC-32 does not match the data".into()));
        }
        if size != self.crc.amount() {
            return Err(Fault::Corrupt(
                "its length field does not match the data".into(),
            ));
        }
        self.pos += 8;
        self.state = State::Ended;
        Ok(())
    }

    /// After damaged data: moves to the next plausible gzip member header, searching from
    /// just after the start of the broken member (or from the point of failure when the
    /// member was too long to keep). Returns `Ok(false)` when there is none.
    ///
    /// # Errors
    /// A read error.
    pub fn resync(&mut self) -> Result<bool, Fault> {
        self.fault = None;
        if !self.gzip {
            self.state = State::Ended;
            return Ok(false);
        }
        let mut from = match self.member {
            Some(m) => m + 1,
            None => self.pos,
        };
        loop {
            let hay = &self.buf[from.min(self.buf.len())..];
            match find_member(hay) {
                Some(i) => {
                    self.pos = from + i;
                    self.member = None;
                    self.state = State::Between;
                    return Ok(true);
                }
                None if self.eof => {
                    self.pos = self.buf.len();
                    self.state = State::Ended;
                    return Ok(false);
                }
                None => {
                    // Keep the last bytes, which may begin a header.
                    let keep = self.buf.len().saturating_sub(9).max(from);
                    self.pos = keep;
                    self.member = None;
                    self.refill().map_err(Fault::Io)?;
                    from = self.pos;
                }
            }
        }
    }
}

/// What inflate's error says, without its prefix: the deflate data is invalid, and how.
fn inflate_error(e: &flate2::DecompressError) -> String {
    let m = e.to_string();
    let m = m
        .strip_prefix("deflate decompression error: ")
        .unwrap_or(&m);
    // NOTE: zlib-rs reports some damage (a member cut short and run on into the next
    // member's bytes, say) as "repeated call with bad state", which says nothing of it.
    if m.is_empty() || m.contains("bad state") {
        return "its compressed data is invalid".into();
    }
    format!("its compressed data is invalid ({m})")
}

/// Where the first plausible gzip member header in `hay` starts (magic bytes, deflate,
/// no reserved flags, and room for the rest of the fixed header).
fn find_member(hay: &[u8]) -> Option<usize> {
    memchr::memchr_iter(MAGIC[0], hay)
        .take_while(|&i| hay.len() - i >= 10)
        .find(|&i| hay[i + 1] == MAGIC[1] && hay[i + 2] == 8 && hay[i + 3] & 0xe0 == 0)
}

/// The length of the gzip member header at the start of `b`; `Ok(None)` when `b` ends
/// before the header does.
fn gzip_header(b: &[u8]) -> Result<Option<usize>, &'static str> {
    if b.len() < 10 {
        return if b.len() >= 2 && !is_gzip(b) {
            Err("it does not start with the gzip magic bytes")
        } else {
            Ok(None)
        };
    }
    if !is_gzip(b) {
        return Err("it does not start with the gzip magic bytes");
    }
    if b[2] != 8 {
        return Err("its compression method is not deflate");
    }
    let flags = b[3];
    if flags & 0xe0 != 0 {
        return Err("its header sets reserved flags");
    }
    let mut n = 10;
    if flags & 0x04 != 0 {
        let Some(x) = b.get(n..n + 2) else {
            return Ok(None);
        };
        n += 2 + u16::from_le_bytes([x[0], x[1]]) as usize;
    }
    for bit in [0x08, 0x10] {
        if flags & bit != 0 {
            match memchr::memchr(0, b.get(n..).unwrap_or(&[])) {
                Some(z) => n += z + 1,
                None if b.len() > MAX_GZIP_HEADER => return Err("its header is too long"),
                None => return Ok(None),
            }
        }
    }
    if flags & 0x02 != 0 {
        n += 2;
    }
    if n > MAX_GZIP_HEADER {
        return Err("its header is too long");
    }
    Ok((b.len() >= n).then_some(n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn member(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn members<R: Read>(s: &mut Source<R>) -> Vec<Result<Vec<u8>, String>> {
        let mut all = Vec::new();
        loop {
            match s.next_member() {
                Ok(false) => break,
                Ok(true) => {}
                Err(e) => {
                    all.push(Err(e.to_string()));
                    if !s.resync().unwrap() {
                        break;
                    }
                    continue;
                }
            }
            let mut out = Vec::new();
            loop {
                match s.read(&mut out, 7) {
                    Ok(0) => {
                        all.push(Ok(out));
                        break;
                    }
                    Ok(_) => {}
                    Err(e) => {
                        all.push(Err(e.to_string()));
                        if !s.resync().unwrap() {
                            return all;
                        }
                        break;
                    }
                }
            }
        }
        all
    }

    #[test]
    fn members_are_read_one_by_one() {
        let mut data = member(b"one");
        data.extend(member(b"two, longer"));
        let mut s = Source::new(&data[..]);
        assert!(s.is_gzip());
        assert_eq!(
            members(&mut s),
            vec![Ok(b"one".to_vec()), Ok(b"two, longer".to_vec())]
        );
    }

    #[test]
    fn a_member_cut_short_is_an_error_and_the_next_member_is_still_read() {
        let first = member(&b"first member ".repeat(500));
        let mut data = first[..first.len() / 2].to_vec();
        data.extend(member(b"second"));
        let got = members(&mut Source::new(&data[..]));
        assert!(got[0].is_err(), "{got:?}");
        assert_eq!(got.last().unwrap(), &Ok(b"second".to_vec()));
    }

    #[test]
    fn a_flipped_byte_is_caught_by_the_checksum() {
        let mut data = member(b"some text that compresses a little, some text");
        let n = data.len();
        data[n - 9] ^= 0xff;
        data.extend(member(b"next"));
        let got = members(&mut Source::new(&data[..]));
        assert!(got[0].is_err(), "{got:?}");
        assert_eq!(got.last().unwrap(), &Ok(b"next".to_vec()));
    }

    #[test]
    fn members_decompressed_in_one_piece_or_streamed_are_the_same() {
        // Members of several sizes, one with header-like bytes (1f 8b 08 00) in its
        // payload, then damage: a member cut short and bytes that are no member at all.
        let mut data = Vec::new();
        for i in 0..5 {
            data.extend(member(
                &format!("member {i} ").repeat(1 << (3 * i)).into_bytes(),
            ));
        }
        // (Stored, not compressed: the bytes are in the member as they are.)
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::none());
        e.write_all(b"\x1f\x8b\x08\x00 inside a payload \x1f\x8b\x08\x00 and more")
            .unwrap();
        let stored = e.finish().unwrap();
        assert!(memchr::memmem::find(&stored[10..], b"\x1f\x8b\x08\x00").is_some());
        data.extend(stored);
        let cut = member(&b"cut short ".repeat(300));
        data.extend(&cut[..cut.len() / 2]);
        data.extend(member(b"after the cut"));
        data.extend(b"no member here");
        data.extend(member(b"last"));
        let mut one_shot = Source::new(&data[..]);
        let mut streamed = Source::new(&data[..]);
        streamed.set_one_shot_max(0);
        let a = members(&mut one_shot);
        assert_eq!(a, members(&mut streamed));
        assert_eq!(a.iter().filter(|m| m.is_err()).count(), 2, "{a:?}");
        assert_eq!(a.last().unwrap(), &Ok(b"last".to_vec()));
        // Read with an empty buffer, a member is handed over whole.
        let mut s = Source::new(&data[..]);
        assert!(s.next_member().unwrap());
        let mut out = Vec::new();
        assert_eq!(s.read(&mut out, 1).unwrap(), b"member 0 ".len());
        assert_eq!(s.read(&mut out, 1).unwrap(), 0);
    }

    #[test]
    fn plain_input_is_one_member() {
        let got = members(&mut Source::new(&b"WARC/1.0\r\n"[..]));
        assert_eq!(got, vec![Ok(b"WARC/1.0\r\n".to_vec())]);
    }

    #[test]
    fn header_fields_are_skipped() {
        let mut e = flate2::GzBuilder::new()
            .filename("a.warc")
            .comment("c")
            .extra(vec![1, 2, 3])
            .write(Vec::new(), flate2::Compression::fast());
        e.write_all(b"payload").unwrap();
        let data = e.finish().unwrap();
        assert_eq!(
            members(&mut Source::new(&data[..])),
            vec![Ok(b"payload".to_vec())]
        );
    }
}
