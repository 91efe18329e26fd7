#!/usr/bin/env bash
# The README's "Try it", step by step, against a running sandbox server:
# find the default vault, try a cross-border payout (refused until KYC is
# approved), approve KYC through the sandbox provider, initiate and confirm
# the payout, wait for COMPLETED, then read its FIRA (saving the PDF), the
# INR ledger balance and the tax liability.
#
#   PAYOUTD_URL   the server (default http://localhost:8080)
#   PAYOUTD_KEY   a sandbox API key (sk_sandbox_…): printed at the first
#                 start, or by `payoutd keys create --email you@example.com`
#   PAYOUTD_OUT   where the FIRA PDF is saved (default: this directory)
#
# Needs bash and curl only. Stops with a non-zero exit at the first step
# that does not answer as expected, saying which and why.
set -euo pipefail

URL="${PAYOUTD_URL:-http://localhost:8080}"
URL="${URL%/}"
KEY="${PAYOUTD_KEY:-}"
OUT="${PAYOUTD_OUT:-.}"
# A valid Stellar-style destination (the sandbox rail settles to any).
DEST=GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ

STEP="start"
fail() {
	echo "quickstart: step \"$STEP\" failed: $*" >&2
	exit 1
}
[ -n "$KEY" ] || fail "set PAYOUTD_KEY to a sandbox API key (sk_sandbox_…)"
case "$KEY" in sk_sandbox_*) ;; *) fail "PAYOUTD_KEY is not a sandbox key (sk_sandbox_…)" ;; esac
command -v curl >/dev/null || fail "curl is not installed"

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# newkey prints a random UUID for an Idempotency-Key.
newkey() {
	if [ -r /proc/sys/kernel/random/uuid ]; then
		cat /proc/sys/kernel/random/uuid
	else
		local h
		h=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
		printf '%s-%s-4%s-a%s-%s\n' "${h:0:8}" "${h:8:4}" "${h:13:3}" "${h:17:3}" "${h:20:12}"
	fi
}

# api METHOD PATH [JSON] sends one request; STATUS and BODY hold the answer.
# A request with a body carries a fresh Idempotency-Key.
api() {
	local args=(-sS -X "$1" -H "Authorization: Bearer $KEY" -o "$tmp" -w '%{http_code}')
	if [ $# -ge 3 ]; then
		args+=(-H 'Content-Type: application/json' -H "Idempotency-Key: $(newkey)" --data "$3")
	fi
	STATUS=$(curl "${args[@]}" "$URL$2") || fail "cannot reach $URL$2"
	BODY=$(cat "$tmp")
}

# expect STATUS fails the step unless the last answer had that status.
expect() {
	[ "$STATUS" = "$1" ] || fail "answered $STATUS, want $1: $BODY"
}

# field NAME prints the first value of "NAME" in the input JSON.
field() {
	grep -oE "\"$1\":(\"[^\"]*\"|-?[0-9][0-9.]*|true|false|null)" | head -n1 | sed -E 's/^"[^"]*"://; s/^"(.*)"$/\1/'
}

# object_with TEXT prints the JSON object of the input that contains TEXT.
object_with() {
	tr '{' '\n' | grep -F "$1" | head -n1
}

STEP="the server is ready"
STATUS=$(curl -sS -o "$tmp" -w '%{http_code}' "$URL/readyz") || fail "cannot reach $URL (set PAYOUTD_URL)"
expect 200

STEP="1. find the default vault"
api GET /api/v1/wallets
expect 200
VAULT=$(printf '%s' "$BODY" | object_with '"isDefault":true' | field id)
[ -n "$VAULT" ] || fail "no default vault in $BODY"
echo "default vault $VAULT: $(printf '%s' "$BODY" | object_with '"isDefault":true' | field available) $(printf '%s' "$BODY" | object_with '"isDefault":true' | field currency) available"

PAYOUT='{"amount":250.00,"currency":"USD","destinationAddress":"'$DEST'","invoiceRef":"INV-7","counterpartyName":"Acme Inc","counterpartyCountry":"US","purposeCode":"P0802","memo":"Design work, November"}'

STEP="2. initiate a cross-border payout (KYC not yet approved)"
api POST /api/v1/payments/initiate "$PAYOUT"
if [ "$STATUS" = 403 ]; then
	[ "$(printf '%s' "$BODY" | field code)" = ERR_KYC_REQUIRED ] || fail "403 without ERR_KYC_REQUIRED: $BODY"
	echo "refused as expected: $(printf '%s' "$BODY" | field message)"

	STEP="3. approve KYC through the sandbox provider"
	api POST /api/v1/sandbox/kyc/approve
	expect 200
	[ "$(printf '%s' "$BODY" | field status)" = APPROVED ] || fail "KYC is not APPROVED: $BODY"
	echo "KYC APPROVED"

	STEP="4. initiate the payout again (a new Idempotency-Key: the refusal is replayed for the old one)"
	api POST /api/v1/payments/initiate "$PAYOUT"
else
	echo "KYC was already approved: the payout is initiated at once"
fi
expect 201
PAY=$(printf '%s' "$BODY" | field id)
echo "payout $PAY INITIATED"

STEP="5. confirm the payout from the default vault"
api POST /api/v1/payments/confirm '{"id":"'$PAY'","destinationAddress":"'$DEST'","amount":"250.00","currency":"USD","vaultId":"'$VAULT'"}'
expect 201
echo "confirmed: $(printf '%s' "$BODY" | field status)"

STEP="6. wait for COMPLETED"
for _ in $(seq 1 300); do
	api GET "/api/v1/payments/payouts/$PAY"
	expect 200
	status=$(printf '%s' "$BODY" | field status)
	case "$status" in
	COMPLETED) break ;;
	FAILED) fail "the payout FAILED: $BODY" ;;
	esac
	sleep 0.1
done
[ "$status" = COMPLETED ] || fail "still $status after 30 s"
echo "payout COMPLETED: $(printf '%s' "$BODY" | field amountInr) INR at $(printf '%s' "$BODY" | field settlementRate)"

STEP="7. read the FIRA and save its PDF"
api GET "/api/v1/compliance/fira?paymentId=$PAY"
expect 200
FIRA=$(printf '%s' "$BODY" | field id)
[ -n "$FIRA" ] || fail "no FIRA for $PAY: $BODY"
api GET "/api/v1/compliance/fira/$FIRA"
expect 200
echo "FIRA $FIRA: $(printf '%s' "$BODY" | field amountInr) INR, purpose $(printf '%s' "$BODY" | field purposeCode)"
PDF="$OUT/$FIRA.pdf"
STATUS=$(curl -sS -H "Authorization: Bearer $KEY" -o "$PDF" -w '%{http_code}' "$URL/api/v1/compliance/fira/$FIRA/pdf") || fail "cannot reach $URL"
expect 200
[ "$(head -c 5 "$PDF")" = "%PDF-" ] || fail "$PDF is not a PDF"
echo "saved $PDF"

STEP="8. the INR ledger balance"
api GET /api/v1/ledger/accounts
expect 200
ACCOUNT=$(printf '%s' "$BODY" | object_with '"kind":"settlement"' | field id)
[ -n "$ACCOUNT" ] || fail "no settlement account: $BODY"
api GET "/api/v1/ledger/accounts/$ACCOUNT/balance"
expect 200
echo "settlement account $ACCOUNT: settled $(printf '%s' "$BODY" | field settled) paise"

STEP="9. the tax liability"
api GET /api/v1/tax/liability
expect 200
echo "FY $(printf '%s' "$BODY" | field financialYear): gross receipts $(printf '%s' "$BODY" | field grossReceipts) INR, estimated tax due $(printf '%s' "$BODY" | field estimatedTaxDue) INR"

echo "quickstart: ok"
