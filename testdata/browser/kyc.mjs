// Drives the hosted KYC page in Debian's headless Chromium, the way a user
// would: from POST /kyc/start's redirectUrl to APPROVED, and (as a second
// user) to REJECTED, then "Try again" to a resubmission that is approved.
//
//   node testdata/browser/kyc.mjs <base-url>
//
// Env: PAYOUTD_KEY_APPROVE and PAYOUTD_KEY_REJECT are sandbox API keys of two
// users whose KYC is PENDING; ARTIFACTS_DIR (default ./artifacts) receives
// the screenshots; CHROMIUM (default /usr/bin/chromium). server/
// verify_browser_test.go runs it against a real payoutd. Exit status 0 means
// every check passed; a failure prints what was expected and what was seen.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const base = (process.argv[2] || '').replace(/\/$/, '');
if (!base) {
  console.error('usage: node kyc.mjs <base-url>');
  process.exit(2);
}
const keys = { approve: process.env.PAYOUTD_KEY_APPROVE, reject: process.env.PAYOUTD_KEY_REJECT };
if (!keys.approve || !keys.reject) {
  console.error('PAYOUTD_KEY_APPROVE and PAYOUTD_KEY_REJECT must be set');
  process.exit(2);
}
const artifacts = resolve(process.env.ARTIFACTS_DIR || 'artifacts');
mkdirSync(artifacts, { recursive: true });

// Smallest valid files of each accepted type; the server sniffs content.
const files = {
  png: Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex'),
  pdf: Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
  jpeg: Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex'),
  text: Buffer.from('this is not an identity document\n'),
};

function check(cond, what) {
  if (!cond) throw new Error('check failed: ' + what);
  console.log('ok   ' + what);
}

async function api(key, method, path) {
  const res = await fetch(base + path, { method, headers: { Authorization: 'Bearer ' + key } });
  const body = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  // Playwright gives every launch a fresh temporary --user-data-dir.
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

// newPage opens a page in its own context (its own cookie jar, like a
// separate browser) and fails the run on any console error, which is where
// Content-Security-Policy violations and script errors show up.
const problems = [];
// How long any one step may take before the run fails: a deadline, not a
// pace (each step goes on as soon as it can), long enough for a loaded
// machine where Chromium shares the CPU with everything else.
const stepDeadline = 120_000;
async function newPage() {
  const ctx = await browser.newContext({ viewport: { width: 900, height: 1000 } });
  ctx.setDefaultTimeout(stepDeadline);
  const page = await ctx.newPage();
  // Error pages (400, 403, 404, 410, 415) are expected here; Chromium logs
  // each as a failed resource load, which is not a problem of the page.
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource: the server responded')) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  return page;
}

async function shot(page, name) {
  const file = join(artifacts, `kyc-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.log('shot ' + file);
}

const heading = (page) => page.locator('h1').first().innerText();

async function fillIdentity(page, name, pan, dob) {
  check((await heading(page)) === 'Your details', 'the link opens on the details step');
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('PAN').fill(pan);
  await page.getByLabel('Date of birth').fill(dob);
  // Submit from the keyboard: Enter in the last field sends the form.
  await page.getByLabel('Date of birth').press('Enter');
  await page.waitForURL((u) => !u.search.includes('step='));
  await page.locator('h1', { hasText: 'Upload a document' }).waitFor();
  check(true, 'identity details accepted');
}

async function upload(page, kindLabel, file) {
  await page.getByLabel('Document type').selectOption({ label: kindLabel });
  await page.getByLabel('File', { exact: true }).setInputFiles(file);
  await page.getByRole('button', { name: 'Submit for review' }).click();
}

async function waitOutcome(page, title) {
  // The review panel updates itself; no reload is done here.
  await page.locator('h1', { hasText: title }).waitFor();
  check(true, `the page shows "${title}" by itself`);
}

// Run 1: start → details → document → live review → APPROVED.
{
  const start = await api(keys.approve, 'POST', '/api/v1/kyc/start');
  check(start.success === true && start.status === 'IN_PROGRESS', 'kyc/start moves PENDING to IN_PROGRESS');
  const page = await newPage();
  const res = await page.goto(start.redirectUrl);
  check(res.status() === 200, 'redirectUrl answers 200');
  const cookies = await page.context().cookies();
  const c = cookies.find((k) => k.name === 'payoutd_verify');
  check(c && c.httpOnly && c.sameSite === 'Lax', 'the browser session cookie is HttpOnly and SameSite=Lax');
  await shot(page, '1-details');

  // Empty form: the error summary appears, takes focus, and links to fields.
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.locator('.error-summary').waitFor();
  // The page's script moves focus once the summary is in place; on a busy
  // machine that can be a moment after it appears.
  const focused = await page.waitForFunction(() => document.activeElement && document.activeElement.classList.contains('error-summary'),
    null).then(() => true, () => false);
  check(focused, 'the error summary takes focus');
  check((await page.getByLabel('PAN').getAttribute('aria-invalid')) === 'true', 'invalid fields are marked aria-invalid');
  await shot(page, '2-details-errors');

  await fillIdentity(page, 'Asha Rao', 'ABCPE1234F', '1990-05-17');
  await shot(page, '3-document');

  // A text file is refused by content, whatever its name says.
  await upload(page, 'PAN card', { name: 'pan.png', mimeType: 'image/png', buffer: files.text });
  await page.locator('.error-summary').waitFor();
  check((await page.locator('.error-summary').innerText()).includes('PDF, JPEG or PNG'), 'a non-image is refused by content sniffing');

  await upload(page, 'PAN card', { name: 'pan.png', mimeType: 'image/png', buffer: files.png });
  await page.locator('[data-poll]').waitFor();
  check(true, 'the upload leads to the live review panel');
  await shot(page, '4-review');
  await waitOutcome(page, 'You are verified');
  await shot(page, '5-approved');
  const status = await api(keys.approve, 'GET', '/api/v1/kyc/status');
  check(status.status === 'APPROVED' && status.allowedTransitions.length === 0, 'API status is APPROVED with no transitions');

  // The same link in another browser is refused with a clear page.
  const other = await newPage();
  const r2 = await other.goto(start.redirectUrl);
  check(r2.status() === 403 && (await heading(other)) === 'Link opened elsewhere', 'another browser cannot use a bound link');
  const r3 = await other.goto(base + '/verify/kys_doesnotexist');
  check(r3.status() === 404 && (await heading(other)) === 'Link not found', 'an unknown link shows a 404 page');
  await shot(other, '6-unknown-link');
  await other.context().close();
  await page.context().close();
}

// Run 2: a name containing REJECT is rejected; "Try again" gives a new link
// in the same browser, and the resubmission is approved.
{
  const start = await api(keys.reject, 'POST', '/api/v1/kyc/start');
  const page = await newPage();
  await page.goto(start.redirectUrl);
  await fillIdentity(page, 'Reject Me', 'ABCPR1234F', '1985-01-31');
  await upload(page, 'Passport', { name: 'passport.pdf', mimeType: 'application/pdf', buffer: files.pdf });
  await waitOutcome(page, 'Verification not approved');
  await shot(page, '7-rejected');
  let status = await api(keys.reject, 'GET', '/api/v1/kyc/status');
  check(status.status === 'REJECTED' && status.allowedTransitions.join() === 'DOCS_SUBMITTED', 'REJECTED allows DOCS_SUBMITTED');

  const firstURL = page.url();
  await page.getByRole('button', { name: 'Try again' }).click();
  await page.waitForURL((u) => u.href !== firstURL);
  check(page.url() !== firstURL, 'resubmission continues on a new link');
  check((await page.getByLabel('Full name').inputValue()) === 'Reject Me', 'the details form is prefilled from the last attempt');
  await page.getByLabel('Full name').fill('Ravi Kumar');
  await fillIdentity(page, 'Ravi Kumar', 'ABCPK1234F', '1985-01-31');
  await upload(page, 'Aadhaar card', { name: 'aadhaar.jpg', mimeType: 'image/jpeg', buffer: files.jpeg });
  await waitOutcome(page, 'You are verified');
  await shot(page, '8-resubmitted-approved');
  status = await api(keys.reject, 'GET', '/api/v1/kyc/status');
  check(status.status === 'APPROVED', 'the resubmission is APPROVED');

  const old = await page.goto(firstURL);
  check(old.status() === 410 && (await heading(page)) === 'Link replaced', 'the superseded link shows a 410 page');
  await page.context().close();
}

await browser.close();
if (problems.length) {
  console.error('console errors in the page:\n' + problems.join('\n'));
  process.exit(1);
}
console.log('all browser checks passed');
