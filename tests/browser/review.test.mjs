// `mainline review` in a real browser: headless Chromium opens the written page from disk,
// a person's clicks and keys are played on it, and what it saves is compared with labels
// worked out here, independently of the page's script, from `mainline filter --format
// jsonl` (the model's decisions) and `mainline lines` (the feature rows).
//
// Needs Chromium (/usr/bin/chromium, or CHROMIUM=path) and `npm ci` in this folder; the
// mainline binary is target/debug/mainline (or MAINLINE=path). Run: node --test tests/browser
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(import.meta.url), "../../..");
const mainline = process.env.MAINLINE ?? join(root, "target/debug/mainline");
const chromium = process.env.CHROMIUM ?? "/usr/bin/chromium";
const page1 = join(root, "data/samples/article.html");
const page2 = join(root, "data/samples/table-layout.html");
const work = mkdtempSync(join(tmpdir(), "mainline-review-"));

let chromiumPkg;
try {
  chromiumPkg = (await import("playwright-core")).chromium;
} catch {
  chromiumPkg = null;
}
const skip = !existsSync(chromium)
  ? `no Chromium at ${chromium} (apt-get install chromium, or set CHROMIUM)`
  : chromiumPkg === null
    ? "playwright-core is not installed (npm ci in tests/browser)"
    : !existsSync(mainline)
      ? `no mainline binary at ${mainline} (cargo build, or set MAINLINE)`
      : false;
if (skip) console.log(`# SKIP review browser tests: ${skip}`);

function run(...args) {
  // Standard error (progress, summaries) is kept out of the test's report.
  return execFileSync(mainline, args, { encoding: "utf8", maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "pipe"] });
}

// Minimal CSV reader (RFC 4180: quoted fields with doubled quotes and line breaks).
function parseCsv(text) {
  const rows = [];
  let row = [], field = "", quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") { row.push(field); field = ""; }
    else if (c === "\n") { row.push(field); rows.push(row); row = []; field = ""; }
    else if (c !== "\r") field += c;
  }
  if (field !== "" || row.length) { row.push(field); rows.push(row); }
  return rows;
}

let browser;
before(async () => {
  if (skip) return;
  browser = await chromiumPkg.launch({
    executablePath: chromium,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});
after(async () => { await browser?.close(); });

async function open(file) {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", e => errors.push(e.message));
  await page.goto("file://" + file);
  return { page, errors };
}

async function save(page, button) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(button)]);
  const path = join(work, download.suggestedFilename());
  await download.saveAs(path);
  return readFileSync(path, "utf8");
}

const counts = page => page.$eval("#counts", el => ({ ...el.dataset }));

test("toggled lines are saved as a training CSV and as labels that reopen", { skip }, async () => {
  const review = join(work, "review.html");
  run("review", page1, page2, "--group", "example.org", "-o", review);

  // What the page starts from: the model's decisions, in order.
  const decisions = run("filter", "--format", "jsonl", page1).trim().split("\n").map(l => JSON.parse(l));
  const expected = decisions.map(d => (d.keep ? 1 : 0));
  const initial = expected.slice();
  // The feature rows of the same lines, and their enclosing elements.
  const lines = parseCsv(run("lines", page1));
  const header = lines[0];
  const rows = lines.slice(1);
  assert.equal(rows.length, expected.length);
  const pathCol = header.indexOf("path");
  const paths = rows.map(r => (r[pathCol] === "" ? [] : r[pathCol].split(" ").map(Number)));

  const { page, errors } = await open(review);
  assert.equal(await page.locator("#lines .line").count(), expected.length);
  assert.equal(Number((await counts(page)).kept), expected.filter(x => x).length);
  assert.equal(Number((await counts(page)).changed), 0);

  const line = i => page.locator(`#lines .line[data-i="${i}"]`);
  // A click toggles a line.
  await line(0).click();
  expected[0] ^= 1;
  // j moves down, k up, space toggles the current line.
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await page.keyboard.press("k");
  await page.keyboard.press(" ");
  expected[1] ^= 1;
  // Shift-click sets every line from the last one clicked to the new state of the clicked one.
  await line(3).click();
  expected[3] ^= 1;
  await line(7).click({ modifiers: ["Shift"] });
  const value = expected[7] ^ 1;
  for (let i = 3; i <= 7; i++) expected[i] = value;
  // - drops, + keeps the element around the current line (line 7's list, table, container).
  const target = paths[9].length > 1 ? paths[9][1] : paths[9][0];
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await page.keyboard.press("-");
  paths.forEach((p, i) => { if (p.includes(target)) expected[i] = 0; });
  const changed = expected.filter((x, i) => x !== initial[i]).length;
  assert.equal(Number((await counts(page)).changed), changed);
  assert.ok(changed > 0);

  // The CSV: mainline lines' rows with the labels filled in and the group set.
  const csv = parseCsv(await save(page, "#save-csv"));
  assert.deepEqual(csv[0], header);
  const saved = csv.slice(1).filter(r => r[0] === rows[0][0]);
  assert.equal(saved.length, rows.length);
  saved.forEach((r, i) => {
    assert.equal(r[3], String(expected[i]), `label of line ${i}`);
    assert.equal(r[1], "example.org");
    const mine = r.slice();
    const theirs = rows[i].slice();
    mine[1] = theirs[1] = "";
    mine[3] = theirs[3] = "";
    assert.deepEqual(mine, theirs, `line ${i}`);
  });
  // Both pages are in the one CSV.
  assert.ok(csv.slice(1).some(r => r[0] === page2));
  const csvPath = join(work, "saved.csv");
  writeFileSync(csvPath, csv.map(r => r.map(f => (/[",\n\r]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(",")).join("\n") + "\n");

  // The labels alone, and the review written again from them.
  const labels = JSON.parse(await save(page, "#save-labels"));
  assert.equal(labels.format, "mainline-labels");
  const mineLabels = labels.pages.find(p => p.doc === page1).labels;
  assert.equal(mineLabels, expected.join(""));
  await page.screenshot({ path: join(root, "target/review-screenshot.png") });
  assert.deepEqual(errors, []);

  const labelsPath = join(work, "labels.json");
  writeFileSync(labelsPath, JSON.stringify(labels));
  const reopened = join(work, "reopened.html");
  run("review", page1, page2, "--group", "example.org", "--labels", labelsPath, "-o", reopened);
  const again = await open(reopened);
  assert.equal(Number((await counts(again.page)).changed), changed);
  assert.equal(Number((await counts(again.page)).kept), expected.filter(x => x).length);

  // The saved CSV trains: fine-tuning the built-in model on it writes a model that filters.
  const model = join(work, "tuned.json");
  run("train", csvPath, "--init", "builtin", "-o", model);
  assert.ok(run("filter", "--model", model, page1).length > 0);
});

test("a page of 10,000 lines opens and toggles", { skip }, async () => {
  const big = join(work, "big.html");
  const paras = Array.from({ length: 10000 }, (_, i) => `<p>Paragraph ${i} of a long page, with enough words to read as prose.</p>`);
  writeFileSync(big, `<!doctype html><meta charset=utf-8><title>big</title><body>${paras.join("\n")}</body>`);
  const review = join(work, "big-review.html");
  run("review", big, "-o", review);
  const started = Date.now();
  const { page, errors } = await open(review);
  assert.equal(await page.locator("#lines .line").count(), 10000);
  const opened = Date.now() - started;
  const before = Number((await counts(page)).changed);
  await page.locator('#lines .line[data-i="9999"]').click();
  assert.equal(Number((await counts(page)).changed), before + 1);
  console.log(`# 10,000-line review: opened in ${opened} ms`);
  assert.deepEqual(errors, []);
});
