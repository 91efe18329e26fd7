package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/india"
)

// FIRAGenerated is the only status a FIRA has: it is written once, complete.
const FIRAGenerated = "GENERATED"

// unknownRemittingBank stands in when the payout named no counterparty bank:
// the advice must name a remitter's bank, and an empty cell reads as a fault.
const unknownRemittingBank = "Unknown remitting bank"

// fallbackPurpose is RBI's catch-all for services, used when a payout carries
// no purpose code or one that is not in the table (docs/tax.md).
const fallbackPurpose = "P1099"

// FIRA is payoutd's own advice of one settled cross-border payout;
// the bank's e-FIRA stays the legal record.
type FIRA struct {
	ID                 string
	PaymentID          string
	UserID             string
	Livemode           bool
	Status             string
	RemittingBank      string
	RemittingCountry   string
	AmountForeign      int64 // minor units of ForeignCurrency
	ForeignCurrency    string
	AmountINR          int64 // paise credited
	SettlementRate     string
	PurposeCode        string
	PurposeDescription string
	InvoiceRef         string
	SettlementRef      string
	SettledAt          time.Time
	GeneratedAt        time.Time
	BeneficiaryName    string
	BeneficiaryEmail   string
	// The remitter's name as the payout gave it, and the beneficiary's PAN,
	// postal address and receiving wallet as the profile held them, with the
	// vault the payout settled through: all frozen at generation.
	RemitterName       string
	BeneficiaryPAN     string
	BeneficiaryAddress string
	BeneficiaryWallet  string
	VaultID            string
	// RateAsOf is when the live rate the payout was valued at was true
	// (settlement_rates); zero when none was recorded.
	RateAsOf time.Time
	// Ledger and Fee (stroops) are the Stellar ledger that applied a live
	// payout's transaction (hash SettlementRef) and the fee it was charged;
	// zero for a sandbox payout.
	Ledger int64
	Fee    int64
	// InvoiceDate is the payment's invoice date ("" when none), the date
	// that decides its GST month; GST is its GST value at the rate of the
	// time of supply, nil for a payout settled before GST values were kept.
	InvoiceDate string
	GST         *GSTValue
	// Deposits are the transfers into the vault the payout pays out: the
	// inward remittance as the chain (or the sandbox) recorded it.
	Deposits []LinkedDeposit
}

const firaCols = `f.id, f.payment_id, f.user_id, f.livemode, f.status, f.remitting_bank, f.remitting_country, f.amount_foreign,
	f.foreign_currency, f.amount_inr, f.settlement_rate, f.purpose_code, f.purpose_description, f.invoice_ref,
	f.settlement_ref, f.settled_at, f.generated_at, f.beneficiary_name, f.beneficiary_email, f.remitter_name,
	f.beneficiary_pan, f.beneficiary_address, f.beneficiary_wallet, f.vault_id, sr.as_of, coalesce(p.invoice_date, ''),
	g.payment_id IS NOT NULL, coalesce(g.cross_border, 0), coalesce(g.day, ''), coalesce(g.currency, ''),
	coalesce(g.invoice_amount, 0), coalesce(g.rate, ''), coalesce(g.rate_as_of, 0), coalesce(g.rate_date, ''),
	coalesce(g.rate_basis, ''), coalesce(g.value_inr, 0), coalesce(ss.ledger, 0), coalesce(ss.fee, 0)`

const firaFrom = ` FROM firas f LEFT JOIN settlement_rates sr ON sr.payment_id = f.payment_id
	LEFT JOIN payments p ON p.id = f.payment_id LEFT JOIN gst_values g ON g.payment_id = f.payment_id
	LEFT JOIN stellar_submissions ss ON ss.hash = f.settlement_ref `

func scanFIRA(row interface{ Scan(...any) error }) (FIRA, error) {
	var f FIRA
	var settled, generated int64
	var rateAsOf sql.NullInt64
	var hasGST bool
	var g GSTValue
	var gstAsOf int64
	err := row.Scan(&f.ID, &f.PaymentID, &f.UserID, &f.Livemode, &f.Status, &f.RemittingBank, &f.RemittingCountry,
		&f.AmountForeign, &f.ForeignCurrency, &f.AmountINR, &f.SettlementRate, &f.PurposeCode, &f.PurposeDescription,
		&f.InvoiceRef, &f.SettlementRef, &settled, &generated, &f.BeneficiaryName, &f.BeneficiaryEmail, &f.RemitterName,
		&f.BeneficiaryPAN, &f.BeneficiaryAddress, &f.BeneficiaryWallet, &f.VaultID, &rateAsOf, &f.InvoiceDate,
		&hasGST, &g.CrossBorder, &g.Day, &g.Currency, &g.InvoiceAmount, &g.Rate, &gstAsOf, &g.RateDate, &g.RateBasis, &g.ValueINR, &f.Ledger, &f.Fee)
	f.SettledAt, f.GeneratedAt = fromMS(settled), fromMS(generated)
	if hasGST {
		g.PaymentID, g.InvoiceDate, g.RateAsOf = f.PaymentID, f.InvoiceDate, fromMS(gstAsOf)
		f.GST = &g
	}
	if at := nullMS(rateAsOf); at != nil {
		f.RateAsOf = *at
	}
	return f, err
}

// purposeFor returns the purpose code a FIRA carries and its description: the
// RBI description for a listed code; for a missing code P1099, RBI's catch-all
// for services; an unlisted code is kept (it is what the payer stated) and
// described as falling under P1099.
func purposeFor(code string) (string, string) {
	if d, ok := india.PurposeDescription(code); ok {
		return code, d
	}
	other, _ := india.PurposeDescription(fallbackPurpose)
	if code == "" {
		return fallbackPurpose, other
	}
	return code, "Unlisted purpose code " + code + "; treated as " + fallbackPurpose + " (" + other + ")"
}

// GenerateFIRA writes the FIRA of a settled cross-border payment and emits
// fira.generated, in this transaction. It is idempotent: a payment that
// already has one (firas.payment_id is UNIQUE) gets it back, with no second
// event.
//
// Like Reconcile it inserts first and reads the existing advice back only on
// a conflict.
func (g TaxTx) GenerateFIRA(p Payment) (FIRA, error) {
	tx := g.tx
	if !p.CrossBorder() || p.AmountINR == nil || p.SettledAt == nil {
		if f, err := tx.firaOf(p.ID); err == nil || !errors.Is(err, sql.ErrNoRows) {
			return f, err
		}
		return FIRA{}, apperr.Errorf(apperr.ErrInvalidState, "payment %s is not a settled cross-border payout", p.ID)
	}
	f := FIRA{ID: NewID("fira"), PaymentID: p.ID, UserID: p.UserID, Livemode: p.Livemode, Status: FIRAGenerated,
		RemittingBank: p.CounterpartyBank, RemittingCountry: p.CounterpartyCountry, AmountForeign: p.Amount,
		ForeignCurrency: p.Currency, AmountINR: *p.AmountINR, SettlementRate: p.SettlementRate, InvoiceRef: p.InvoiceRef,
		SettlementRef: p.SettlementRef, SettledAt: *p.SettledAt, GeneratedAt: tx.now, RemitterName: p.CounterpartyName,
		VaultID: p.VaultID}
	if f.RemittingBank == "" {
		f.RemittingBank = unknownRemittingBank
	}
	f.PurposeCode, f.PurposeDescription = purposeFor(p.PurposeCode)
	// The beneficiary is frozen now so the document never changes; a user
	// without a profile row still gets an advice, just without the names.
	if prof, err := tx.findProfile(p.UserID); err == nil {
		f.BeneficiaryName, f.BeneficiaryEmail, f.BeneficiaryPAN = prof.Name, prof.Email, prof.PAN
		f.BeneficiaryAddress, f.BeneficiaryWallet = prof.Address, prof.WalletAddress
	} else if apperr.Code(err) != apperr.ErrProfileNotFound {
		return FIRA{}, err
	}
	res, err := tx.exec(`INSERT INTO firas (id, payment_id, user_id, livemode, status, remitting_bank,
		remitting_country, amount_foreign, foreign_currency, amount_inr, settlement_rate, purpose_code, purpose_description,
		invoice_ref, settlement_ref, settled_at, generated_at, beneficiary_name, beneficiary_email, remitter_name,
		beneficiary_pan, beneficiary_address, beneficiary_wallet, vault_id)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT (payment_id) DO NOTHING`,
		f.ID, f.PaymentID, f.UserID, f.Livemode, f.Status, f.RemittingBank, f.RemittingCountry, f.AmountForeign,
		f.ForeignCurrency, f.AmountINR, f.SettlementRate, f.PurposeCode, f.PurposeDescription, f.InvoiceRef,
		f.SettlementRef, ms(f.SettledAt), ms(f.GeneratedAt), f.BeneficiaryName, f.BeneficiaryEmail, f.RemitterName,
		f.BeneficiaryPAN, f.BeneficiaryAddress, f.BeneficiaryWallet, f.VaultID)
	if err != nil {
		return FIRA{}, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return tx.firaOf(p.ID)
	}
	tx.countRow(f.UserID, kindFIRAs, "")
	if err := tx.Audit(p.UserID, p.Livemode, "fira.generated", "fira", f.ID,
		map[string]any{"paymentId": p.ID, "amountInr": f.AmountINR, "purposeCode": f.PurposeCode}); err != nil {
		return FIRA{}, err
	}
	return f, tx.emit(p.UserID, p.Livemode, "fira.generated", f.ID, map[string]any{"firaId": f.ID, "paymentId": p.ID, "version": p.Version})
}

// firaOf reads the FIRA of a payment in this transaction.
func (tx *Tx) firaOf(paymentID string) (FIRA, error) {
	f, err := scanFIRA(tx.queryRow("SELECT "+firaCols+firaFrom+"WHERE f.payment_id = ?", paymentID))
	if err == nil {
		f.Deposits, err = tx.Vaults().LinkedDeposits(paymentID)
	}
	return f, err
}

// FindFIRA returns the user's FIRA; another user's is not found.
func (g Tax) FindFIRA(ctx context.Context, userID, id string) (FIRA, error) {
	db := g.db
	f, err := scanFIRA(db.queryRow(ctx, "SELECT "+firaCols+firaFrom+"WHERE f.id = ? AND f.user_id = ?", id, userID))
	if err == nil {
		f.Deposits, err = db.Vaults().PaymentDeposits(ctx, f.PaymentID)
	}
	return f, notFound(err, apperr.ErrFIRANotFound, "FIRA")
}

// FIRAFilter selects a page of a user's FIRAs, newest first. Zero bounds are
// open; From and To bound GeneratedAt, both inclusive.
type FIRAFilter struct {
	UserID    string
	PaymentID string
	ClientID  string    // the FIRAs of the payouts made for this client
	From, To  time.Time // generated_at bounds, inclusive
	// SettledFrom and SettledTo bound the settlement time, inclusive: a
	// financial year or quarter of receipts.
	SettledFrom, SettledTo time.Time
	SkipTotal              bool   // as PaymentFilter's
	After                  string // a FIRA id: only the FIRAs after it are listed
	Page                   int
	Limit                  int
}

var firaOrder = keyset{from: "firas f", col: "f.", id: "id", keys: []string{"generated_at"}}

// where is the filter's condition, without the cursor.
func (f FIRAFilter) where() (string, []any) {
	where, args := "f.user_id = ?", []any{f.UserID}
	if f.PaymentID != "" {
		where += " AND f.payment_id = ?"
		args = append(args, f.PaymentID)
	}
	if f.ClientID != "" {
		// The client's FIRAs are found from its payouts: client_id != ''
		// lets the partial index payments_user_client serve the subquery (a
		// bound ? could be ''), and the unary + keeps firas_user, which
		// would read every FIRA of the user to keep the client's, out of it.
		where = "+" + where + " AND f.payment_id IN (SELECT id FROM payments WHERE user_id = ? AND client_id = ? AND client_id != '')"
		args = append(args, f.UserID, f.ClientID)
	}
	if !f.SettledFrom.IsZero() {
		where += " AND f.settled_at >= ?"
		args = append(args, ms(f.SettledFrom))
	}
	if !f.SettledTo.IsZero() {
		where += " AND f.settled_at <= ?"
		args = append(args, ms(f.SettledTo))
	}
	if !f.From.IsZero() {
		where += " AND f.generated_at >= ?"
		args = append(args, ms(f.From))
	}
	if !f.To.IsZero() {
		where += " AND f.generated_at <= ?"
		args = append(args, ms(f.To))
	}
	return where, args
}

// ListFIRAs returns one page (and the FIRA after it, see pageArgs) and the
// total matching.
func (g Tax) ListFIRAs(ctx context.Context, f FIRAFilter) ([]FIRA, int, error) {
	db := g.db
	where, args := f.where()
	maintained := f.PaymentID == "" && f.ClientID == "" && f.SettledFrom.IsZero() && f.SettledTo.IsZero() && f.From.IsZero() && f.To.IsZero()
	total := -1
	if !f.SkipTotal {
		var err error
		if total, err = db.listTotal(ctx, maintained, f.UserID, kindFIRAs, "",
			"SELECT count(*) FROM firas f WHERE "+where, args); err != nil {
			return nil, 0, err
		}
	}
	if f.After != "" {
		cond, cargs, err := db.afterCursor(ctx, firaOrder, f.After, "f.user_id = ?", []any{f.UserID})
		if err != nil {
			return nil, 0, err
		}
		where += " AND " + cond
		args = append(args, cargs...)
	}
	rows, err := db.query(ctx, "SELECT "+firaCols+firaFrom+"WHERE "+where+
		firaOrder.orderBy()+" LIMIT ? OFFSET ?", append(args, pageArgs(f.Page, f.Limit)...)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []FIRA{}
	for rows.Next() {
		fira, err := scanFIRA(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, fira)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	ids := make([]string, len(out))
	for i, f := range out {
		ids[i] = f.PaymentID
	}
	deps, err := depositsOf(func(q string, a ...any) (*sql.Rows, error) { return db.r.QueryContext(ctx, q, a...) }, ids)
	for i := range out {
		out[i].Deposits = deps[out[i].PaymentID]
	}
	return out, total, err
}
