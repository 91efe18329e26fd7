// Drives the console (/console/) in Debian's headless Chromium as a
// freelancer would, and checks every page with axe-core:
//
//   node testdata/browser/console.mjs <base-url>
//
// Env: CONSOLE_LINK (a fresh sign-in link of a sandbox user whose KYC is
// APPROVED), CONSOLE_LINK_EXPIRED (an expired link), CONSOLE_LINK_OTHER (a
// link of a second user); API_KEY (the first user's key, to count its
// audit rows around each form and reload); SEEDED (a JSON file: the ids of
// the user's payouts, newest first, and how many are COMPLETED and
// INITIATED); ARTIFACTS_DIR (default ./artifacts) receives screenshots of
// every page and the downloads; CHROMIUM (default /usr/bin/chromium).
// console_browser_test.go runs it against a real payoutd. It prints
// "result {json}" with the payout and FIRA it made; exit status 0 means
// every check passed.
//
// Nothing here assumes how fast the machine is: every action and
// navigation may take up to `patience`, and what happens in the background
// (a payout completing, a webhook delivered) is waited for by reloading
// until the page shows it, within that bound, never by a fixed sleep.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { readCSV, readZip } from './files.mjs';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const base = (process.argv[2] || '').replace(/\/$/, '');
const links = { fresh: process.env.CONSOLE_LINK, expired: process.env.CONSOLE_LINK_EXPIRED, other: process.env.CONSOLE_LINK_OTHER };
const apiKey = process.env.API_KEY;
if (!base || !links.fresh || !links.expired || !links.other || !apiKey || !process.env.SEEDED) {
  console.error('usage: CONSOLE_LINK=… CONSOLE_LINK_EXPIRED=… CONSOLE_LINK_OTHER=… API_KEY=… SEEDED=… node console.mjs <base-url>');
  process.exit(2);
}
const seeded = JSON.parse(readFileSync(process.env.SEEDED, 'utf8'));
const artifacts = resolve(process.env.ARTIFACTS_DIR || 'artifacts');
mkdirSync(artifacts, { recursive: true });

const began = Date.now();
function check(cond, what) {
  if (!cond) throw new Error('check failed: ' + what);
  console.log('ok   ' + what + ' (' + ((Date.now() - began) / 1000).toFixed(1) + ' s)');
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

// patience bounds each action, navigation and background wait: generous,
// so a loaded machine is slow rather than failing.
const patience = 120_000;

// Console errors are where Content-Security-Policy violations show up.
const problems = [];
async function newPage() {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  ctx.setDefaultTimeout(patience);
  ctx.setDefaultNavigationTimeout(patience);
  const page = await ctx.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource: the server responded')) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  return page;
}

const heading = (page) => page.locator('h1').first().innerText();

// navigate runs an action that loads another page and returns once that
// page has loaded, so what follows reads the new page, not the old one.
async function navigate(page, action) {
  const [res] = await Promise.all([page.waitForNavigation(), action()]);
  return res;
}

// fetchDownload runs an action that downloads a file and returns its
// name and bytes, kept in the artifacts too (as console-<as>).
async function fetchDownload(page, action, as) {
  const [download] = await Promise.all([page.waitForEvent('download'), action()]);
  const path = join(artifacts, 'console-' + (as || download.suggestedFilename()));
  await download.saveAs(path);
  return { name: download.suggestedFilename(), bytes: readFileSync(path) };
}

// auditCount is how many audit rows of that action the user has, through
// the API (GET /compliance/audit).
async function auditCount(page, action) {
  const res = await page.context().request.get(base + '/api/v1/compliance/audit?limit=1&action=' + encodeURIComponent(action),
    { headers: { Authorization: 'Bearer ' + apiKey } });
  if (res.status() !== 200) throw new Error('audit list: ' + res.status());
  return (await res.json()).total;
}

// submitThenReload sends a form as the user would and reloads the page it
// lands on: the POST must answer with a redirect to a page (so a reload
// repeats a GET, not the form), the form must have done its one thing
// (one audit row of action more), and the reload must change nothing (the
// audit rows, and rows(), the same; a one-time secret not shown again).
// landing runs on the page landed on, before the reload. It returns rows()
// before the submit and after.
async function submitThenReload(page, what, action, submit, rows = async () => 0, landing = async () => {}) {
  const before = { audit: await auditCount(page, action), rows: await rows() };
  const res = await navigate(page, submit);
  const post = res.request().redirectedFrom();
  check(res.request().method() === 'GET' && post?.method() === 'POST',
    `${what}: the form's POST answers with a redirect (${post?.method()} → ${res.request().method()} ${new URL(res.url()).pathname})`);
  const after = { audit: await auditCount(page, action), rows: await rows(), secret: await page.locator('#secret').count() };
  check(after.audit === before.audit + 1, `${what}: done once (${action}: ${before.audit} → ${after.audit} audit rows)`);
  await landing();
  await page.reload();
  const again = { audit: await auditCount(page, action), rows: await rows() };
  check(again.audit === after.audit && again.rows === after.rows && (await page.locator('#secret, .flash').count()) === 0,
    `${what}: a reload changes nothing (${action}: ${after.audit} → ${again.audit}; rows ${after.rows} → ${again.rows}; flash and secret gone)`);
  return { before: before.rows, after: after.rows, secret: after.secret };
}

// readPayouts reads the Payouts list as shown: the count, each row's
// cells, and which page links there are.
function readPayouts(page) {
  return page.evaluate(() => {
    const main = document.querySelector('main');
    const count = main.textContent.match(/(\d+) payouts? match/);
    const rows = [...main.querySelectorAll('.table-wrap[aria-label="Payouts table"] tbody tr')].filter((tr) => tr.querySelector('a.mono')).map((tr) => {
      const c = [...tr.cells].map((td) => td.textContent.trim());
      return { id: tr.querySelector('a.mono').textContent.trim(), to: c[2], amount: c[3], inr: c[4], status: c[5] };
    });
    const link = (rel) => document.querySelector(`nav.pager a[rel="${rel}"]`)?.textContent ?? null;
    return { count: count ? Number(count[1]) : -1, rows, next: link('next'), prev: link('prev') };
  });
}

// walkPayouts follows one page link (Next page or Previous page) from the
// list shown to its end and returns every page read on the way.
async function walkPayouts(page, link) {
  const pages = [];
  for (;;) {
    const p = await readPayouts(page);
    pages.push(p);
    const rel = link === 'Next page' ? 'next' : 'prev';
    if (p[rel] === null) return pages;
    if (p[rel] !== link || pages.length > 200) throw new Error(`check failed: page ${pages.length}'s ${rel} link says ${p[rel]}`);
    // The link's own click, 160 times over: without Playwright's wait for
    // the link to be still on screen, and done when the page is parsed.
    await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.locator(`nav.pager a[rel="${rel}"]`).evaluate((a) => a.click())]);
  }
}

// sameAsList checks a downloaded payouts CSV against the rows of the list
// it came from: the byte order mark, one record per row in the same order,
// and each record's amount, INR value, status and client as the list
// shows them.
function sameAsList(file, rows, what) {
  const csv = readCSV(file.bytes);
  check(csv.bom, `${what}: the CSV (${file.name}) starts with the UTF-8 byte order mark`);
  check(csv.records.length === rows.length, `${what}: the CSV has a record per payout listed (${csv.records.length} of ${rows.length})`);
  const wrong = [];
  csv.records.forEach((r, i) => {
    const row = rows[i] || {};
    const client = r.Client ? r.Client + (r['Client country'] ? ` (${r['Client country']})` : '') : null;
    const shown = { id: row.id, amount: row.amount?.replaceAll(',', ''), inr: row.inr?.replaceAll(',', ''), status: row.status, to: client === null ? null : row.to };
    const csvRow = { id: r.Payout, amount: `${r.Currency} ${r.Amount}`, inr: r.INR ? '₹' + r.INR : '—', status: r.Status, to: client };
    if (JSON.stringify(shown) !== JSON.stringify(csvRow)) wrong.push({ list: shown, csv: csvRow });
  });
  check(wrong.length === 0, `${what}: every CSV record's id, amount, INR, status and client equal the list's` +
    (wrong.length ? ' ' + JSON.stringify(wrong.slice(0, 3)) : ''));
  return csv;
}

// reloadUntil reloads the page until cond (run in Node on the page) holds.
async function reloadUntil(page, what, cond) {
  const deadline = Date.now() + patience;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('check failed: gave up waiting for ' + what);
    await page.reload();
  }
}

// colourRules are axe's rules a colour scheme can change.
const colourRules = ['color-contrast', 'link-in-text-block'];

// visit checks the page with axe-core in four states (1280 and 375 px
// wide, light and dark colour scheme): no violation of any impact, minor
// and moderate included. Every rule runs at both widths (a narrow screen
// shows and hides other elements); in the dark scheme, which changes only
// colours, the rules about colour. It checks that nothing is wider than a
// 375 px screen, and keeps screenshots at 1280 px (light) and 375 px
// (dark).
async function visit(page, name) {
  const markup = await page.evaluate(() => {
    const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
    return {
      twice: ids.filter((id, i) => ids.indexOf(id) !== i),
      orphans: [...document.querySelectorAll('label[for]')].map((l) => l.htmlFor).filter((f) => !document.getElementById(f)),
    };
  });
  check(markup.twice.length === 0 && markup.orphans.length === 0,
    `${name}: ids are unique and every label names a control (${JSON.stringify(markup)})`);
  await page.evaluate(axeSource);
  const bad = [];
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      const res = await page.evaluate((colours) => globalThis.axe.run(document, {
        resultTypes: ['violations'], ...(colours ? { runOnly: { type: 'rule', values: colours } } : {}),
      }), colorScheme === 'dark' ? colourRules : null);
      for (const v of res.violations) {
        bad.push({ at: `${width} ${colorScheme}`, id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + (n.any[0]?.message ? ': ' + n.any[0].message : '')) });
      }
      if ((colorScheme === 'light') === (width === 1280)) {
        await page.screenshot({ path: join(artifacts, `console-${name}-${width}${colorScheme === 'dark' ? '-dark' : ''}.png`), fullPage: true });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    if (width === 375) {
      const wide = await page.evaluate(() => {
        const over = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 376 && !e.closest('.table-wrap'));
        return { width: document.documentElement.scrollWidth, over: over.slice(0, 3).map((e) => e.tagName + '.' + e.className) };
      });
      check(wide.width <= 375, `${name} fits 375 px (scrollWidth ${wide.width}${wide.over.length ? ', too wide: ' + wide.over.join(' ') : ''})`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  check(bad.length === 0, `axe: no violation on ${name} at 1280 and 375 px, light and dark` + (bad.length ? ' ' + JSON.stringify(bad) : ''));
}

// signIn opens a link and presses its Sign in button with the keyboard; a
// link refused on opening has no button, and the refusal stays shown.
async function signIn(page, link, name) {
  await page.goto(link);
  if (await heading(page) === 'Sign-in link refused') return;
  check(await heading(page) === 'Sign in to the console', 'a link opens the sign-in step');
  if (name) await visit(page, name);
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.textContent?.trim() === 'Sign in')) break;
  }
  await navigate(page, () => page.keyboard.press('Enter'));
}

const istToday = new Date(Date.now() + 330 * 60 * 1000).toISOString().slice(0, 10);
const result = {};
try {
  const page = await newPage();
  await signIn(page, links.fresh, 'signin');
  check(new URL(page.url()).pathname === '/console/', 'signing in lands on Home');
  check(await heading(page) === 'Home', 'Home is shown');
  check((await page.locator('.mode').innerText()).includes('SANDBOX'), 'the banner says SANDBOX');
  check(await page.locator('ol.bars svg.bar').count() === 12, 'Home draws twelve monthly bars');
  const waiting = page.locator('section[aria-labelledby="attention-h"] h3', { hasText: 'INITIATED' });
  check((await waiting.innerText()).startsWith(`INITIATED ${seeded.initiated} `), 'Home says how many payouts wait to be confirmed: ' + await waiting.innerText());
  await visit(page, 'home');

  // Every page of Payouts, forward with Next and back with Previous: the
  // ids in the store's order, none twice, none missing, the count right.
  await navigate(page, () => page.getByRole('link', { name: 'Payouts', exact: true }).click());
  await visit(page, 'payouts');
  const forward = await walkPayouts(page, 'Next page');
  const ids = forward.flatMap((p) => p.rows.map((r) => r.id));
  const want = new Set(seeded.ids);
  check(ids.length === seeded.ids.length && new Set(ids).size === ids.length && ids.every((id) => want.has(id)),
    `Next page walks ${forward.length} pages: ${ids.length} payouts, ${ids.length - new Set(ids).size} duplicates, ${seeded.ids.filter((id) => !ids.includes(id)).length} gaps`);
  check(ids.join() === seeded.ids.join(), 'the pages list the payouts newest first, as the store does');
  check(forward.every((p) => p.count === seeded.ids.length), `every page says ${seeded.ids.length} payouts match`);
  const back = (await walkPayouts(page, 'Previous page')).reverse();
  check(back.length === forward.length && back.every((p, i) => p.rows.map((r) => r.id).join() === forward[i].rows.map((r) => r.id).join()),
    `Previous page walks the same ${back.length} pages back to the first`);
  const rows = forward.flatMap((p) => p.rows);
  const all = await fetchDownload(page, () => page.getByRole('link', { name: 'Download these as CSV' }).click(), 'payouts-all.csv');
  sameAsList(all, rows, 'all payouts');

  // A search by part of a client's name, in another case, and its CSV.
  await page.getByLabel('Search').fill('rUPEE');
  await navigate(page, () => page.getByRole('button', { name: 'Find', exact: true }).click());
  const found = await walkPayouts(page, 'Next page');
  const hits = found.flatMap((p) => p.rows);
  const expect = rows.filter((r) => r.to.toLowerCase().includes('rupee'));
  check(expect.length > 25 && hits.map((r) => r.id).join() === expect.map((r) => r.id).join() && found.every((p) => p.count === expect.length),
    `searching "rUPEE" finds the ${expect.length} payouts of "Café Rupee (₹) LLP" over ${found.length} pages, and says so (${found[0].count})`);
  const csv = sameAsList(await fetchDownload(page, () => page.getByRole('link', { name: 'Download these as CSV' }).click(), 'payouts-rupee.csv'), hits, 'the search');
  check(csv.records.every((r) => r.Client === 'Café Rupee (₹) LLP'), 'the CSV reads ₹ and é as the list shows them');
  await navigate(page, () => page.getByRole('link', { name: 'First page' }).click());
  await visit(page, 'payouts-search');

  // A payout through the form: one step to say what, one to confirm.
  await navigate(page, () => page.getByRole('link', { name: 'New payout', exact: true }).first().click());
  check(await heading(page) === 'New payout', 'New payout opens');
  await page.getByLabel('Amount').fill('250.00');
  await page.getByLabel('Destination address').fill('GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ');
  await page.getByLabel('Client name').fill('Acme Inc');
  await page.getByLabel('Client country').fill('US');
  await page.getByLabel('Purpose code').fill('P0802');
  await page.getByLabel('Invoice reference').fill('INV-CONSOLE-1');
  await page.getByLabel('Memo').fill('x'.repeat(300));
  await navigate(page, () => page.getByRole('button', { name: 'Continue to confirm' }).click());
  check((await page.locator('#memo-error').innerText()).includes('256'),
    'a memo over 256 characters gets the API\'s message next to the field');
  await visit(page, 'payout-new-errors');
  await page.getByLabel('Memo').fill('Console invoice');
  await navigate(page, () => page.getByRole('button', { name: 'Continue to confirm' }).click());
  check(await heading(page) === 'Confirm payout', 'the confirmation step shows what will be sent');
  check((await page.locator('main').innerText()).includes('INR estimate'), 'the confirmation shows an INR estimate');
  await visit(page, 'payout-confirm');
  await navigate(page, () => page.getByRole('button', { name: /^Confirm and send/ }).click());
  const payoutID = new URL(page.url()).pathname.split('/').pop();
  check(payoutID.startsWith('pay_'), 'confirming leads to the payout ' + payoutID);
  result.payout = payoutID;
  await reloadUntil(page, 'the payout to complete', async () => (await page.locator('main .badge').first().innerText()) === 'COMPLETED');
  check(true, 'the payout reaches COMPLETED');
  check((await page.locator('.timeline li').count()) >= 5, 'the timeline lists each status from the audit log');
  await visit(page, 'payout');

  // Its notice, with the unread count in the header (its e-mail is
  // checked by console_browser_test.go).
  await reloadUntil(page, 'the unread count', async () => (await page.locator('nav .count').count()) === 1);
  await navigate(page, () => page.getByRole('link', { name: /^Notices/ }).click());
  check((await page.locator('ol.notices').innerText()).includes('Payout of USD 250.00 completed'), 'the completed payout is a notice');
  await visit(page, 'notices');
  await submitThenReload(page, 'marking notices read', 'notices.read', () => page.getByRole('button', { name: 'Mark all as read' }).click());
  check(await page.locator('nav .count').count() === 0, 'marked read, the header counts none');
  await page.goto(base + '/console/payouts/' + payoutID);

  // Its FIRA, as a PDF download.
  const pdf = await fetchDownload(page, () => page.getByRole('link', { name: 'Download FIRA PDF' }).click(), 'fira.pdf');
  check(pdf.bytes.subarray(0, 5).toString() === '%PDF-', 'the FIRA downloads as a PDF');
  result.fira = pdf.name.replace(/^FIRA-/, '').replace(/\.pdf$/, '');

  await navigate(page, () => page.getByRole('link', { name: 'Payouts', exact: true }).click());
  check(await page.locator(`a[href="/console/payouts/${payoutID}"]`).count() === 1, 'the payout is listed');

  // A client added, then chosen in New payout: the payout and its FIRA
  // name it, and its page lists them.
  await navigate(page, () => page.getByRole('link', { name: 'Clients', exact: true }).click());
  check(await heading(page) === 'Clients', 'Clients opens');
  await page.getByLabel('Name', { exact: true }).fill('Meridian Labs GmbH');
  await page.getByLabel(/^Country/).fill('DE');
  await page.getByLabel(/^Purpose code/).fill('P0802');
  await page.getByLabel(/^Usual currency/).fill('USD');
  await page.getByLabel(/^E-mail/).fill('ap@meridian.example');
  await page.getByLabel(/^Address/).fill('Torstraße 1, 10119 Berlin');
  await submitThenReload(page, 'adding a client', 'client.created', () => page.getByRole('button', { name: 'Add client' }).click());
  check(await heading(page) === 'Meridian Labs GmbH', 'adding a client opens its page');
  const clientURL = page.url();
  await navigate(page, () => page.getByRole('link', { name: 'New payout', exact: true }).first().click());
  await page.getByRole('combobox', { name: /^Client/ }).selectOption({ label: 'Meridian Labs GmbH (DE)' });
  await page.getByLabel('Amount').fill('120.00');
  await page.getByLabel('Destination address').fill('GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ');
  await page.getByLabel('Invoice reference').fill('INV-MERIDIAN-7');
  await visit(page, 'payout-new');
  await navigate(page, () => page.getByRole('button', { name: 'Continue to confirm' }).click());
  const confirmText = await page.locator('main').innerText();
  check(confirmText.includes('Meridian Labs GmbH') && confirmText.includes('DE'), 'the confirmation names the client chosen, with its country');
  await navigate(page, () => page.getByRole('button', { name: /^Confirm and send/ }).click());
  const clientPayout = new URL(page.url()).pathname.split('/').pop();
  await reloadUntil(page, 'the client\'s payout to complete', async () => (await page.locator('main .badge').first().innerText()) === 'COMPLETED');
  const details = await page.locator('section[aria-labelledby="details-h"]').innerText();
  check(details.includes('Meridian Labs GmbH') && details.includes('P0802'), 'the client\'s payout names it, with its purpose code');
  await navigate(page, () => page.locator('section[aria-labelledby="fira-h"] a[href^="/console/firas/"]:not([download])').click());
  check((await heading(page)).startsWith('FIRA fira_'), 'its FIRA opens');
  check((await page.locator('section[aria-labelledby="parties-h"]').innerText()).includes('Meridian Labs GmbH'), 'its FIRA names the client as remitter');
  await visit(page, 'fira');
  await page.goto(clientURL);
  const clientPage = await page.locator('main').innerText();
  check(clientPage.includes(clientPayout) && clientPage.includes('1 FIRA.') && clientPage.includes('1 completed payout'),
    'the client\'s page lists its payout and FIRA and counts the year');
  await visit(page, 'client');
  await navigate(page, () => page.getByRole('link', { name: 'Clients', exact: true }).click());
  await visit(page, 'clients');

  // Every FIRA of the year in one ZIP, counted against the FIRA list.
  await navigate(page, () => page.getByRole('link', { name: 'FIRAs', exact: true }).click());
  await visit(page, 'firas');
  const firas = [];
  for (;;) {
    firas.push(...await page.locator('table a.mono').allInnerTexts());
    if (await page.getByRole('link', { name: 'Next page' }).count() === 0) break;
    await navigate(page, () => page.getByRole('link', { name: 'Next page' }).click());
  }
  const firaTotal = Number((await page.locator('.lead').innerText()).match(/(\d+) in all/)[1]);
  const zip = await fetchDownload(page, () => page.getByRole('button', { name: 'Download all PDFs (ZIP)' }).click());
  const entries = readZip(zip.bytes);
  check(firas.length === firaTotal && firas.includes(result.fira), `the FIRA list shows its ${firaTotal} FIRAs`);
  check(entries.length === firas.length && entries.map((e) => e.name).sort().join() === firas.map((id) => `FIRA-${id}.pdf`).sort().join(),
    `${zip.name} holds a PDF per FIRA listed (${entries.length} of ${firas.length})`);
  check(entries.every((e) => e.data?.subarray(0, 5).toString() === '%PDF-'), 'each entry of the ZIP is a PDF');

  // A payout waiting to be confirmed, cancelled from Home's list.
  await navigate(page, () => page.getByRole('link', { name: 'Home', exact: true }).click());
  await navigate(page, () => page.locator('section[aria-labelledby="attention-h"] ul.waiting a').first().click());
  check(await heading(page) === 'Confirm payout', 'Home\'s waiting payout opens its confirmation');
  await submitThenReload(page, 'cancelling a payout', 'payment.failed', () => page.getByRole('button', { name: 'Cancel this payout' }).click());
  check(await page.locator('main .badge').first().innerText() === 'CANCELLED', 'the cancelled payout says CANCELLED');
  check(!(await page.locator('main').innerText()).includes('Review and confirm'), 'a cancelled payout offers no confirm');
  await visit(page, 'payout-cancelled');
  await navigate(page, () => page.getByRole('link', { name: 'Home', exact: true }).click());
  check((await waiting.innerText()).startsWith(`INITIATED ${seeded.initiated - 1} `), 'Home waits for one payout fewer');

  // Settings: every form, each followed by a reload that changes nothing.
  const rowsOf = (table) => () => page.locator(`.table-wrap[aria-label="${table}"] tbody tr`).count();
  await navigate(page, () => page.getByRole('link', { name: 'Settings', exact: true }).click());
  await visit(page, 'settings');
  await page.getByLabel('URL', { exact: true }).fill(base + '/console/webhook-sink');
  await page.getByLabel(/^Description/).fill('browser test');
  let n = await submitThenReload(page, 'adding a webhook endpoint', 'webhook.created',
    () => page.getByRole('button', { name: 'Add endpoint' }).click(), rowsOf('Webhook endpoints table'));
  check(n.after === n.before + 1 && n.secret === 1, 'the endpoint is listed and its secret was shown once');
  const sink = page.locator('.table-wrap[aria-label="Webhook endpoints table"] tr', { hasText: '/console/webhook-sink' });
  n = await submitThenReload(page, 'rotating a webhook secret', 'webhook.secret_rotated',
    () => sink.getByRole('button', { name: /^Rotate secret/ }).click(), rowsOf('Webhook endpoints table'));
  check(n.secret === 1, 'the new webhook secret was shown once');
  await page.getByLabel(/^Label/).fill('browser-test');
  await page.getByRole('checkbox', { name: 'payments:read' }).check();
  n = await submitThenReload(page, 'creating an API key', 'api_key.created',
    () => page.getByRole('button', { name: 'Create key' }).click(), rowsOf('API keys table'), () => visit(page, 'settings-secret'));
  check(n.after === n.before + 1 && n.secret === 1, 'the key is listed and its secret was shown once');
  const keyRow = page.locator('.table-wrap[aria-label="API keys table"] tr', { hasText: 'browser-test' });
  n = await submitThenReload(page, 'rotating an API key', 'api_key.rotated',
    () => keyRow.getByRole('button', { name: /^Rotate/ }).click(), rowsOf('API keys table'));
  check(n.after === n.before + 1 && n.secret === 1, 'rotating lists the new key beside the old and shows its secret once');
  check((await keyRow.allInnerTexts()).some((t) => t.includes('rotated; works until')), 'the rotated key says until when it works');
  // Revoking asks once more, on a page that says what will happen.
  await navigate(page, () => keyRow.filter({ hasText: 'active' }).getByRole('link', { name: /^Revoke/ }).click());
  check((await heading(page)).startsWith('Revoke API key'), 'revoke opens its confirmation page');
  check((await page.locator('main').innerText()).includes('This cannot be undone'), 'the confirmation says what will happen');
  await visit(page, 'confirm-revoke');
  n = await submitThenReload(page, 'revoking an API key', 'api_key.revoked',
    () => page.getByRole('button', { name: 'Revoke the key' }).click(), rowsOf('API keys table'));
  check((await keyRow.allInnerTexts()).some((t) => t.includes('revoked')), 'the key is revoked from its confirmation page');
  await page.getByLabel('Set a share of each settlement aside').check();
  await page.getByLabel(/^Share of each settlement/).fill('12.5');
  await submitThenReload(page, 'saving the reserve policy', 'sequestration.policy_set', () => page.getByRole('button', { name: 'Save reserve' }).click());
  check(await page.getByLabel('Set a share of each settlement aside').isChecked() && await page.getByLabel(/^Share of each settlement/).inputValue() === '12.50',
    'the reserve policy reads back on, at 12.50 %');
  await page.getByLabel('A deposit arrived in a vault').uncheck();
  await submitThenReload(page, 'saving which notices are e-mailed', 'notices.mail_set', () => page.getByRole('button', { name: 'Save e-mail choices' }).click());
  check(!(await page.getByLabel('A deposit arrived in a vault').isChecked()) && await page.getByLabel('A payout completed').isChecked(),
    'the e-mail choices read back as saved');
  // An endpoint its failed deliveries turned off, turned back on.
  await navigate(page, () => page.getByRole('link', { name: base + '/console/webhook-gone', exact: true }).click());
  check((await page.locator('dl.facts').innerText()).includes('disabled — 7 deliveries in a row failed'), 'a turned-off endpoint says why');
  await visit(page, 'webhook-disabled');
  await submitThenReload(page, 'turning an endpoint back on', 'webhook.enabled', () => page.getByRole('button', { name: 'Turn it back on' }).click());
  check((await page.locator('dl.facts').innerText()).includes('enabled'), 'the endpoint is on again');

  // A vault's page and the invoices list.
  await navigate(page, () => page.getByRole('link', { name: 'Home', exact: true }).click());
  await navigate(page, () => page.locator('.grid .card a').first().click());
  check((await page.locator('main h2').allInnerTexts()).includes('Deposits'), 'a vault opens with its deposits');
  await visit(page, 'vault');
  await navigate(page, () => page.getByRole('link', { name: 'Invoices', exact: true }).click());
  check(await heading(page) === 'Invoices', 'Invoices opens');
  await visit(page, 'invoices');

  // A challan: first with a wrong BSR code, then right.
  await navigate(page, () => page.getByRole('link', { name: 'Tax', exact: true }).click());
  check((await heading(page)).startsWith('Tax: '), 'Tax opens');
  await visit(page, 'tax');
  await page.getByLabel('Amount (₹)').fill('1000');
  await page.getByLabel('Paid on').fill(istToday);
  await page.getByLabel('BSR code').fill('12');
  await page.getByLabel('Challan serial').fill('00017');
  await navigate(page, () => page.getByRole('button', { name: 'Record challan' }).click());
  const bsrError = (await page.locator('#bsrCode-error').textContent().catch(() => '(none: ' + page.url() + ')')).replace(/\s+/g, ' ').trim();
  check(bsrError === 'Error: must be the 7-digit BSR code on the challan',
    'a wrong BSR code is refused with the API\'s message next to it (' + bsrError + ')');
  await visit(page, 'tax-errors');
  await page.getByLabel('BSR code').fill('0510002');
  await navigate(page, () => page.getByRole('button', { name: 'Record challan' }).click());
  check((await page.locator('.flash').innerText()) === 'Challan recorded.', 'the challan is recorded');
  check((await page.locator('#challans').locator('..').innerText()).includes('0510002 / 00017'), 'the challan is listed');

  // Home now shows the receipts, the tax paid and the year's figures.
  await navigate(page, () => page.getByRole('link', { name: 'Home', exact: true }).click());
  const receipts = `${seeded.completed + 2} reconciled receipt(s)`;
  await reloadUntil(page, receipts, async () => (await page.locator('main').innerText()).includes(receipts));
  check((await page.locator('main').innerText()).includes('₹1,000.00'), 'Home shows ' + receipts + ' and the challan');
  await visit(page, 'home-after');

  // The challan's event reached the webhook endpoint: its deliveries page,
  // and one of them sent again.
  await navigate(page, () => page.getByRole('link', { name: 'Settings', exact: true }).click());
  await navigate(page, () => page.getByRole('link', { name: base + '/console/webhook-sink', exact: true }).click());
  check(await heading(page) === 'Webhook endpoint', 'an endpoint opens with its deliveries');
  const deliveries = page.locator('.table-wrap[aria-label="Deliveries table"]');
  await reloadUntil(page, 'a delivery to the webhook endpoint', async () => (await deliveries.innerText()).includes('tax.payment.recorded'));
  check((await deliveries.innerText()).includes('404'), 'a delivery shows its status and response');
  await visit(page, 'webhook');
  const attempts = async () => Number((await page.locator('main').innerText()).match(/(\d+) attempt\(s\)/)[1]);
  const sent = await attempts();
  await submitThenReload(page, 'sending an event again', 'webhook.redeliver',
    () => deliveries.locator('tr', { hasText: 'tax.payment.recorded' }).first().getByRole('button', { name: /^Send again/ }).click());
  await reloadUntil(page, 'the event\'s attempt sent again', async () => (await attempts()) > sent);
  check(true, 'the event sent again appears as an attempt more');

  // A page that does not exist.
  const missing = await page.goto(base + '/console/no-such-page');
  check(missing.status() === 404 && await heading(page) === 'Page not found', 'an unknown address is a Not found page');
  await visit(page, 'not-found');

  // A form without its CSRF token does nothing.
  const forged = await page.context().request.post(base + '/console/tax/payments', {
    form: { fy: '', kind: 'advance', amount: '5', paidOn: istToday, bsrCode: '0510002', challanSerial: '00018' }, maxRedirects: 0,
  });
  check(forged.status() === 403, 'a POST without the CSRF token is refused (' + forged.status() + ')');

  await navigate(page, () => page.getByRole('button', { name: 'Sign out' }).click());
  check(await heading(page) === 'You are signed out', 'signing out says so');
  await visit(page, 'signed-out');
  await page.goto(base + '/console/');
  check(await heading(page) === 'Sign in to the console', 'after signing out the console asks for a link');

  // A used link and an expired one are refused.
  await signIn(page, links.fresh);
  check(await heading(page) === 'Sign-in link refused', 'a used link is refused');
  check((await page.locator('main').innerText()).includes('already used'), 'the refusal says the link was used');
  await visit(page, 'signin-refused');
  await signIn(page, links.expired);
  check((await page.locator('main').innerText()).includes('expired'), 'an expired link is refused as expired');

  // A second user sees none of the first user's data.
  const other = await newPage();
  await signIn(other, links.other);
  check(await heading(other) === 'Home', 'the second user signs in');
  await other.goto(base + '/console/payouts');
  check((await other.locator('main').innerText()).includes('No payouts match.'), 'the second user lists no payouts');
  const res = await other.goto(base + '/console/payouts/' + payoutID);
  check(res.status() === 404, 'the first user\'s payout is not found for the second');
  const otherPDF = await other.context().request.get(base + '/console/firas/' + result.fira + '/pdf');
  check(otherPDF.status() === 404, 'the first user\'s FIRA PDF is not found for the second');
  await other.goto(base + '/console/firas');
  check((await other.locator('main').innerText()).includes('No FIRA yet'), 'the second user lists no FIRA');
  await other.goto(base + '/console/tax');
  check(!(await other.locator('main').innerText()).includes('00017'), 'the second user sees no challan of the first');
  await other.goto(base + '/console/clients');
  check(!(await other.locator('main').innerText()).includes('Meridian'), 'the second user sees no client of the first');

  check(problems.length === 0, 'no console errors (CSP violations, script errors): ' + JSON.stringify(problems));
  console.log('result ' + JSON.stringify(result));
  writeFileSync(join(artifacts, 'console-result.json'), JSON.stringify(result));
} finally {
  await browser.close();
}
