//! Extract the main text of a page as a stream, with the built-in model.
//!
//! ```text
//! cargo run --example extract
//! ```

use mainline::extract::{Extractor, ModelScorer};
use std::sync::Arc;

fn main() -> Result<(), mainline::Error> {
    let page = std::fs::read("data/samples/article.html")?;
    let mut ex = Extractor::new(Arc::new(ModelScorer::builtin()));
    for piece in page.chunks(4096) {
        ex.write(piece)?; // pieces of any size
        while let Some(d) = ex.next_decision() {
            // each line is decided as soon as the line after it has arrived
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
