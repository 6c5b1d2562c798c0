//! Extract the main text of a page as a stream, with the built-in model.
//!
//! ```text
//! cargo run --example extract
//! ```

use mainline::{Extractor, ModelScorer};
use std::sync::Arc;

fn main() -> Result<(), mainline::Error> {
    let page = std::fs::read("data/samples/article.html")?;
    let mut ex = Extractor::new(Arc::new(ModelScorer::builtin()));
    for piece in page.chunks(4096) {
        ex.write(piece)?; // pieces of any size
        while let Some(d) = ex.next_decision() {
            // lines come out as soon as they are decided: for the built-in model, when
            // their block of the page is complete (see `Extractor::buffered_lines`)
            if d.keep {
                println!("{}", d.line.text);
            }
        }
    }
    ex.end()?;
    while let Some(d) = ex.next_decision() {
        if d.keep {
            println!("{}", d.line.text);
        }
    }
    Ok(())
}
