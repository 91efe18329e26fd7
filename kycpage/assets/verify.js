// The hosted KYC page's small enhancements. Everything works without them:
// forms post normally, and the review panel falls back to a <noscript>
// refresh. No framework, nothing loaded from elsewhere.
(() => {
  'use strict';

  // Move focus to the error summary so keyboard and screen-reader users
  // land on what went wrong.
  const summary = document.querySelector('.error-summary');
  if (summary) summary.focus();

  // Refuse an oversized or wrongly typed file before a long upload.
  const file = document.querySelector('input[type=file][data-max-bytes]');
  const fileError = document.getElementById('document-client-error');
  if (file && fileError) {
    const max = Number(file.dataset.maxBytes);
    const types = ['application/pdf', 'image/jpeg', 'image/png'];
    file.addEventListener('change', () => {
      const f = file.files && file.files[0];
      let msg = '';
      if (f && f.size > max) msg = 'The file is larger than ' + Math.round(max / 1048576) + ' MB. Choose a smaller file.';
      else if (f && f.type && !types.includes(f.type)) msg = 'The file must be a PDF, JPEG or PNG.';
      fileError.textContent = msg;
      fileError.hidden = msg === '';
      file.setCustomValidity(msg);
      if (msg) file.setAttribute('aria-invalid', 'true'); else file.removeAttribute('aria-invalid');
    });
    file.form.addEventListener('submit', (e) => {
      if (fileError.textContent) {
        e.preventDefault();
        file.focus();
      }
    });
  }

  // Live status: poll the JSON status while the review runs. Intermediate
  // changes update the polite live region; a decision reloads the page to
  // show the outcome with its actions.
  const panel = document.querySelector('[data-poll]');
  if (!panel) return;
  const label = panel.querySelector('[data-status-label]');
  const message = panel.querySelector('[data-status-message]');
  let current = panel.dataset.status;
  let delay = 1000;
  const tick = async () => {
    try {
      const res = await fetch(panel.dataset.poll, { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'application/json' } });
      if (res.ok) {
        const s = await res.json();
        delay = 1000;
        if (s.final) { window.location.reload(); return; }
        if (s.status !== current) {
          current = s.status;
          panel.dataset.status = s.status;
          label.textContent = s.label;
          message.textContent = s.message;
        }
      } else {
        delay = Math.min(delay * 2, 15000);
      }
    } catch (err) {
      delay = Math.min(delay * 2, 15000); // offline for a moment: back off, keep trying
    }
    window.setTimeout(tick, delay);
  };
  window.setTimeout(tick, delay);
})();
