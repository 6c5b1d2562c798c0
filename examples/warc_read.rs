//! Times mainline's WARC reader alone (no extraction) on one file: records, HTML pages
//! and MB/s of compressed input and of record blocks.
//!
//! ```text
//! cargo run --release --example warc_read -- target/bench/wcxb-dev.warc.gz
//! ```

use std::time::Instant;

use mainline::warc::{Content, HtmlOptions, Reader};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: warc_read FILE.warc[.gz]")?;
    let compressed = std::fs::metadata(&path)?.len();
    let start = Instant::now();
    let (mut records, mut errors, mut pages, mut blocks, mut html) = (0u64, 0u64, 0u64, 0u64, 0u64);
    for r in Reader::new(std::fs::File::open(&path)?) {
        match r {
            Ok(r) => {
                records += 1;
                blocks += r.block().len() as u64;
                if let Ok(Content::Html(h)) = r.html(&HtmlOptions::default()) {
                    pages += 1;
                    html += h.body.len() as u64;
                }
            }
            Err(_) => errors += 1,
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "mainline reader: {records} records ({errors} errors), {pages} HTML pages, {blocks} block bytes, \
         {html} HTML bytes, {secs:.3} s: {:.1} MB/s compressed, {:.1} MB/s of blocks",
        compressed as f64 / secs / 1e6,
        blocks as f64 / secs / 1e6
    );
    Ok(())
}
