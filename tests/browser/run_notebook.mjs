// run_notebook.mjs — opens a notebook in Debian's Chromium through a running
// classic Jupyter Notebook (6.x) server, runs every cell with the "goldp"
// kernel through the UI (Kernel menu → Restart & Run All), and checks that
// every code cell ran, at least one output carries image/png and is drawn on
// the page (as <img>, or as inline SVG when the output also has
// image/svg+xml, which the classic Notebook prefers), and that no error
// output is shown.
//
//   node run_notebook.mjs --url http://127.0.0.1:8888 --token T \
//        --notebook 01-mechanisms.ipynb [--kernel goldp] [--timeout 150] \
//        [--screenshot out/notebook.png] [--chromium /usr/bin/chromium]
//
// The notebook path is relative to the server's root directory. Exit status:
// 0 all checks passed, 1 a check failed (the reason is printed), 2 bad usage.
// Chromium runs headless with a fresh, temporary profile; playwright-core
// never downloads a browser.

import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function usage(msg) {
  console.error(`run_notebook: ${msg}`);
  console.error('usage: node run_notebook.mjs --url URL --token TOKEN --notebook PATH ' +
    '[--kernel goldp] [--timeout SECONDS] [--screenshot FILE] [--chromium PATH]');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = {
    kernel: 'goldp',
    timeout: 150,
    screenshot: 'out/notebook.png',
    chromium: process.env.CHROMIUM || '/usr/bin/chromium',
  };
  const known = new Set(['url', 'token', 'notebook', 'kernel', 'timeout', 'screenshot', 'chromium']);
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m || !known.has(m[1])) usage(`unknown argument ${JSON.stringify(argv[i])}`);
    let v = m[2];
    if (v === undefined) {
      if (i + 1 >= argv.length) usage(`--${m[1]} needs a value`);
      v = argv[++i];
    }
    opts[m[1]] = v;
  }
  for (const k of ['url', 'token', 'notebook']) {
    if (!opts[k]) usage(`--${k} is required`);
  }
  opts.timeout = Number(opts.timeout);
  if (!(opts.timeout > 0)) usage(`--timeout ${JSON.stringify(String(opts.timeout))}: want a positive number of seconds`);
  opts.url = opts.url.replace(/\/+$/, '');
  return opts;
}

class CheckError extends Error {}

// IMAGE_SELECTOR matches a rendered image output: a PNG <img> or an inline SVG.
const IMAGE_SELECTOR = '.output_area .output_png img, .output_area img[src^="data:image/png"], .output_area .output_svg svg';

function log(msg) {
  console.log(`run_notebook: ${msg}`);
}

// notebookState reads, in the page, what the checks need from the classic
// Notebook's JavaScript model and DOM.
function notebookState(IMAGE_SELECTOR) {
  const nb = window.Jupyter && window.Jupyter.notebook;
  if (!nb) return null;
  const code = nb.get_cells().filter((c) => c.cell_type === 'code' && c.get_text().trim() !== '');
  const icon = document.querySelector('#kernel_indicator_icon');
  return {
    kernelName: nb.kernel ? nb.kernel.name : null,
    connected: !!(nb.kernel && nb.kernel.is_connected()),
    idle: !!(icon && icon.classList.contains('kernel_idle_icon')),
    codeCells: code.length,
    pending: code.filter((c) => c.input_prompt_number === '*').length,
    executed: code.filter((c) => typeof c.input_prompt_number === 'number').length,
    notExecuted: code
      .map((c, i) => ({ i, n: c.input_prompt_number }))
      .filter((x) => typeof x.n !== 'number')
      .map((x) => x.i),
    // Outputs of this run that carry image/png (the classic Notebook shows
    // image/svg+xml instead when both are sent) and images drawn on the page.
    pngOutputs: code.reduce((n, c) => n + c.output_area.outputs
      .filter((o) => o.data && o.data['image/png']).length, 0),
    images: document.querySelectorAll(IMAGE_SELECTOR).length,
    errors: Array.from(document.querySelectorAll('.output_error')).map((e) => e.innerText.slice(0, 600)),
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(opts.chromium)) {
    throw new CheckError(`no Chromium at ${opts.chromium}: run tools/browser-deps.sh`);
  }
  const deadline = Date.now() + opts.timeout * 1000;
  const left = () => Math.max(1000, deadline - Date.now());
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'goldp-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: opts.chromium,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1280, height: 1000 },
    });
    const page = context.pages()[0] || (await context.newPage());
    page.on('pageerror', (e) => log(`page error: ${e.message}`));
    page.on('dialog', (d) => {
      log(`dialog dismissed: ${d.message()}`);
      d.dismiss().catch(() => {});
    });

    const nbURL = `${opts.url}/notebooks/${opts.notebook.split('/').map(encodeURIComponent).join('/')}`;
    log(`opening ${nbURL}`);
    const resp = await page.goto(`${nbURL}?token=${encodeURIComponent(opts.token)}`, { timeout: left() });
    if (!resp || !resp.ok()) {
      throw new CheckError(`GET ${nbURL} answered ${resp ? resp.status() : 'nothing'}`);
    }

    // The notebook's metadata names the kernelspec; the server starts it. A
    // modal dialog instead (say "Kernel not found") ends the wait early.
    try {
      await page.waitForFunction(
        () => (window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel &&
          Jupyter.notebook.kernel.is_connected()) || !!document.querySelector('.modal.in .modal-dialog'),
        null, { timeout: Math.min(left(), 60000) });
    } catch (e) {
      throw new CheckError('the kernel did not connect within 60 s');
    }
    const modal = await page.locator('.modal.in .modal-dialog').allInnerTexts();
    if (modal.length > 0) {
      throw new CheckError(`a dialog opened instead of the kernel: ${modal.join(' | ').replace(/\s+/g, ' ').trim()}`);
    }
    let st = await page.evaluate(notebookState, IMAGE_SELECTOR);
    if (st.kernelName !== opts.kernel) {
      throw new CheckError(`the notebook runs kernel ${JSON.stringify(st.kernelName)}, want ${JSON.stringify(opts.kernel)}`);
    }
    log(`kernel "${st.kernelName}" connected; ${st.codeCells} code cells`);

    // Kernel menu → Restart & Run All, then confirm in the dialog.
    await page.click('#kernellink');
    await page.click('#restart_run_all');
    const confirm = page.locator('.modal-footer button', { hasText: /Restart and Run All/i });
    await confirm.click({ timeout: 10000 });
    log('Kernel → Restart & Run All clicked');

    // Run is over when every non-empty code cell shows a number (or none is
    // pending any more, e.g. after an error stopped the run) and the kernel
    // indicator is idle, twice in a row half a second apart.
    await page.waitForFunction(
      () => Array.from(document.querySelectorAll('.input_prompt')).some((p) => /\[(\*|\d+)\]/.test(p.innerText)),
      null, { timeout: Math.min(left(), 60000) });
    let stable = 0;
    for (;;) {
      st = await page.evaluate(notebookState, IMAGE_SELECTOR);
      const done = st.connected && st.idle && st.pending === 0;
      stable = done ? stable + 1 : 0;
      if (stable >= 2) break;
      if (Date.now() > deadline) {
        throw new CheckError(`timeout after ${opts.timeout} s: ${st.executed}/${st.codeCells} cells executed, ` +
          `${st.pending} pending, kernel ${st.idle ? 'idle' : 'busy'}`);
      }
      await page.waitForTimeout(500);
    }
    log(`${st.executed}/${st.codeCells} code cells executed; ${st.pngOutputs} image/png outputs, ${st.images} drawn; ${st.errors.length} error outputs`);

    // Screenshot: the first error output in view, else the first image, else
    // the top of the page.
    const focus = st.errors.length > 0 ? '.output_error' : st.images > 0 ? IMAGE_SELECTOR : null;
    if (focus) await page.locator(focus).first().scrollIntoViewIfNeeded().catch(() => {});
    fs.mkdirSync(path.dirname(path.resolve(opts.screenshot)), { recursive: true });
    await page.screenshot({ path: opts.screenshot });
    log(`screenshot saved to ${path.resolve(opts.screenshot)}`);

    const problems = [];
    if (st.errors.length > 0) {
      problems.push(`${st.errors.length} error output(s); the first:\n${st.errors[0]}`);
    }
    if (st.notExecuted.length > 0) {
      problems.push(`code cells not executed (index among non-empty code cells): ${st.notExecuted.join(', ')}`);
    }
    if (st.pngOutputs === 0) problems.push('no output carries image/png');
    if (st.images === 0) problems.push('no image output is drawn on the page');
    if (problems.length > 0) throw new CheckError(problems.join('\n'));
    log('ok');
  } finally {
    if (context) await context.close().catch(() => {});
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`run_notebook: FAIL: ${e instanceof CheckError ? e.message : e.stack || e}`);
    process.exit(1);
  },
);
