package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/payoutd/payoutd/apperr"
	"strconv"
	"strings"
	"time"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/wire"
)

// ErrVaultQuarantined is a vault that signs nothing until an operator
// releases it (payoutd vaults release).
var ErrVaultQuarantined = errors.New("vault is quarantined")

// Quarantine reasons.
const (
	// ReasonUnknownSequence: the account used a sequence number payoutd
	// never stored, so a transaction exists that this database does not
	// know (a restored backup, a copy of the database running elsewhere,
	// a leaked key).
	ReasonUnknownSequence = "unknown_sequence"
	// ReasonUnexplainedDebit: the account's balance fell by more than
	// anything payoutd sent (the comparison of balances, used while the
	// RPC server serves no events).
	ReasonUnexplainedDebit = "unexplained_debit"
	// ReasonOutsideTransfer: a transfer out of the account that no payout
	// of the vault explains was read from the chain's events.
	ReasonOutsideTransfer = "outside_transfer"
)

// QuarantineFacts is what was found on the network.
type QuarantineFacts struct {
	Reasons []string
	// ChainSeq is the account's sequence number on the network; KnownSeq
	// the highest payoutd can account for (ExplainedSeq).
	ChainSeq, KnownSeq int64
	// Shortfall is how far (minor units) the chain balance is below the
	// books.
	Shortfall int64
	// Ledger is the network's latest ledger when found; LastModified the
	// ledger that last changed the account.
	Ledger, LastModified int64
	// Hashes are the unknown transactions found in ledger LastModified
	// (the latest of them, unless the account changed again after it);
	// empty when the RPC server could not say.
	Hashes []string
	// Outside are the transfers out of the account that no payout
	// explains and no operator has accepted yet.
	Outside []Movement
}

// Quarantine is a vault stopped for a person to look at.
type Quarantine struct {
	ID       string
	VaultID  string
	UserID   string
	Livemode bool
	Currency string
	Address  string
	QuarantineFacts
	CreatedAt  time.Time
	ReleasedAt *time.Time
	ReleasedBy string
	Note       string
}

// UnknownTxs is how many sequence numbers the account used that payoutd
// did not: at least that many transactions it does not know.
func (q Quarantine) UnknownTxs() int64 { return max(q.ChainSeq-q.KnownSeq, 0) }

// UnknownHashes is Hashes, never nil (an empty list in a view).
func (q Quarantine) UnknownHashes() []string {
	if q.Hashes == nil {
		return []string{}
	}
	return q.Hashes
}

// Describe says in a sentence what was found and what is known of it.
func (q Quarantine) Describe() string {
	var parts []string
	for _, r := range q.Reasons {
		switch r {
		case ReasonUnknownSequence:
			parts = append(parts, fmt.Sprintf("the account %s has used %d sequence number(s) payoutd never signed (%d to %d; payoutd accounts for up to %d), "+
				"last changed in ledger %d%s: a transaction this database does not know exists (a restored backup, a copy of the database running elsewhere, or a leaked key)",
				q.Address, q.UnknownTxs(), q.KnownSeq+1, q.ChainSeq, q.KnownSeq, q.LastModified, q.foundHashes()))
		case ReasonUnexplainedDebit:
			cur, _ := money.Lookup(q.Currency)
			parts = append(parts, fmt.Sprintf("its balance on the network is %s %s below the books, and nothing payoutd sent explains it",
				money.Format(q.Shortfall, cur), q.Currency))
		}
	}
	if len(q.Outside) > 0 {
		// Found with the quarantine or after it: each is named until a
		// payout explains it or a release accepts it.
		parts = append(parts, "transfers out of the account that payoutd did not make: "+describeOutside(q.Outside))
	}
	return "vault " + q.VaultID + " is quarantined: " + strings.Join(parts, "; ") +
		". payoutd signs nothing more from it until an operator has looked and runs: payoutd vaults release " + q.VaultID
}

// describeOutside names each transfer out that no payout explains: its
// transaction, destination and amount.
func describeOutside(list []Movement) string {
	parts := make([]string, len(list))
	for i, m := range list {
		cur, _ := money.Lookup(m.Currency)
		parts[i] = fmt.Sprintf("transaction %s paid %s %s to %s in ledger %d", m.TxHash, money.Format(m.Amount, cur), m.Currency, m.Counterparty, m.Ledger)
		if m.Memo != "" {
			parts[i] += fmt.Sprintf(" (memo %q)", m.Memo)
		}
	}
	return strings.Join(parts, "; ")
}

// foundHashes names the unknown transactions found, for Describe.
func (q Quarantine) foundHashes() string {
	if len(q.Hashes) == 0 {
		return ""
	}
	return " by transaction " + strings.Join(q.Hashes, ", ")
}

const quarantineCols = `q.id, q.vault_id, v.user_id, v.livemode, v.currency, v.address, q.reason, q.chain_seq, q.known_seq, q.shortfall,
	q.ledger, q.last_modified, q.unknown_hashes, q.created_at, q.released_at, q.released_by, q.release_note`

const quarantineFrom = " FROM vault_quarantines q JOIN vaults v ON v.id = q.vault_id "

func scanQuarantine(row interface{ Scan(...any) error }) (Quarantine, error) {
	var q Quarantine
	var reasons, hashes string
	var created int64
	var released sql.NullInt64
	err := row.Scan(&q.ID, &q.VaultID, &q.UserID, &q.Livemode, &q.Currency, &q.Address, &reasons, &q.ChainSeq, &q.KnownSeq,
		&q.Shortfall, &q.Ledger, &q.LastModified, &hashes, &created, &released, &q.ReleasedBy, &q.Note)
	q.Reasons = strings.Split(reasons, ",")
	if hashes != "" {
		q.Hashes = strings.Split(hashes, ",")
	}
	q.CreatedAt, q.ReleasedAt = fromMS(created), nullMS(released)
	return q, err
}

func (tx *Tx) openQuarantine(vaultID string) (Quarantine, bool, error) {
	q, err := scanQuarantine(tx.queryRow("SELECT "+quarantineCols+quarantineFrom+
		"WHERE q.vault_id = ? AND q.released_at IS NULL", vaultID))
	if errors.Is(err, sql.ErrNoRows) {
		return q, false, nil
	}
	if err == nil {
		q.Outside, err = tx.Movements().UnexplainedMovements(vaultID)
	}
	return q, err == nil, err
}

// withOutside fills in each quarantine's transfers out that no payout
// explains.
func (db *DB) withOutside(ctx context.Context, qs []Quarantine) error {
	for i := range qs {
		list, err := db.Movements().UnexplainedMovements(ctx, qs[i].VaultID)
		if err != nil {
			return err
		}
		qs[i].Outside = list
	}
	return nil
}

// VaultQuarantined is the vault's open quarantine, read in the
// transaction.
func (g MovementsTx) VaultQuarantined(vaultID string) (Quarantine, bool, error) {
	tx := g.tx
	return tx.openQuarantine(vaultID)
}

// OpenQuarantine is the vault's quarantine, if it is quarantined.
func (g Movements) OpenQuarantine(ctx context.Context, vaultID string) (Quarantine, bool, error) {
	db := g.db
	q, err := scanQuarantine(db.queryRow(ctx, "SELECT "+quarantineCols+quarantineFrom+
		"WHERE q.vault_id = ? AND q.released_at IS NULL", vaultID))
	if errors.Is(err, sql.ErrNoRows) {
		return q, false, nil
	}
	if err == nil {
		q.Outside, err = db.Movements().UnexplainedMovements(ctx, vaultID)
	}
	return q, err == nil, err
}

// Quarantines lists every quarantined vault, oldest quarantine first
// (/readyz, payoutd check).
func (g Movements) Quarantines(ctx context.Context) ([]Quarantine, error) {
	db := g.db
	rows, err := db.query(ctx, "SELECT "+quarantineCols+quarantineFrom+"WHERE q.released_at IS NULL ORDER BY q.created_at, q.id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Quarantine
	for rows.Next() {
		q, err := scanQuarantine(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, q)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, db.withOutside(ctx, out)
}

// UserQuarantines is the open quarantine of each of the user's quarantined
// vaults, by vault id.
func (g Movements) UserQuarantines(ctx context.Context, userID string) (map[string]Quarantine, error) {
	db := g.db
	rows, err := db.query(ctx, "SELECT "+quarantineCols+quarantineFrom+"WHERE v.user_id = ? AND q.released_at IS NULL", userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]Quarantine{}
	for rows.Next() {
		q, err := scanQuarantine(rows)
		if err != nil {
			return nil, err
		}
		out[q.VaultID] = q
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for id, q := range out {
		if q.Outside, err = db.Movements().UnexplainedMovements(ctx, id); err != nil {
			return nil, err
		}
		out[id] = q
	}
	return out, nil
}

// QuarantinedVaults counts the quarantined vaults (metrics).
func (g Movements) QuarantinedVaults(ctx context.Context) (int, error) {
	db := g.db
	var n int
	err := db.queryRow(ctx, "SELECT count(*) FROM vault_quarantines WHERE released_at IS NULL").Scan(&n)
	return n, err
}

// QuarantineVault stops the vault: from this transaction on it signs
// nothing until released. A vault already quarantined keeps its first
// quarantine, which is returned (opened false).
func (g MovementsTx) QuarantineVault(vaultID string, f QuarantineFacts) (q Quarantine, opened bool, err error) {
	tx := g.tx
	v, err := scanVault(tx.queryRow("SELECT "+vaultCols+" FROM vaults WHERE id = ?", vaultID))
	if err != nil {
		return Quarantine{}, false, notFound(err, apperr.ErrWalletNotFound, "wallet")
	}
	return tx.quarantine(v, f)
}

// quarantine opens the vault's quarantine (opened true), or returns the
// one already open.
func (tx *Tx) quarantine(v Vault, f QuarantineFacts) (q Quarantine, opened bool, err error) {
	if q, open, err := tx.openQuarantine(v.ID); err != nil || open {
		return q, false, err
	}
	q = Quarantine{ID: NewID("vqr"), VaultID: v.ID, UserID: v.UserID, Livemode: v.Livemode, Currency: v.Currency, Address: v.Address,
		QuarantineFacts: f, CreatedAt: tx.now}
	_, err = tx.exec(`INSERT INTO vault_quarantines (id, vault_id, reason, chain_seq, known_seq, shortfall, ledger, last_modified,
		unknown_hashes, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)`, q.ID, q.VaultID, strings.Join(f.Reasons, ","), f.ChainSeq, f.KnownSeq,
		f.Shortfall, f.Ledger, f.LastModified, strings.Join(f.Hashes, ","), ms(tx.now))
	if err != nil {
		return q, false, err
	}
	data := quarantineData(q)
	if err := tx.Audit(v.UserID, v.Livemode, EventVaultQuarantined, "vault", v.ID, data); err != nil {
		return q, false, err
	}
	return q, true, tx.emit(v.UserID, v.Livemode, EventVaultQuarantined, v.ID, data)
}

// quarantineData is the audit row's changes and the event's data; the
// wallet view's quarantine has the same fields.
func quarantineData(q Quarantine) map[string]any {
	d := map[string]any{"vaultId": q.VaultID, "quarantineId": q.ID, "since": wire.Time(q.CreatedAt), "reasons": q.Reasons,
		"description": q.Describe(), "chainSequence": strconv.FormatInt(q.ChainSeq, 10),
		"knownSequence": strconv.FormatInt(q.KnownSeq, 10), "unknownTransactions": q.UnknownTxs(),
		"shortfall": string(wire.Amount(q.Shortfall, q.Currency)), "currency": q.Currency, "ledger": q.Ledger,
		"lastModifiedLedger": q.LastModified, "unknownTransactionHashes": q.UnknownHashes(), "outsideTransfers": outsideData(q.Outside)}
	if q.ReleasedAt != nil {
		d["releasedAt"], d["releasedBy"], d["note"] = wire.Time(*q.ReleasedAt), q.ReleasedBy, q.Note
	}
	return d
}

// outsideData lists transfers out as the event and the wallet view show
// them.
func outsideData(list []Movement) []map[string]any {
	out := make([]map[string]any, 0, len(list))
	for _, m := range list {
		out = append(out, map[string]any{"transactionHash": m.TxHash, "destination": m.Counterparty, "amount": wire.Amount(m.Amount, m.Currency),
			"amountMinor": m.Amount, "currency": m.Currency, "ledger": m.Ledger, "ledgerClosedAt": wire.Time(m.ClosedAt), "memo": m.Memo})
	}
	return out
}

// Event types of a vault's quarantine.
const (
	EventVaultQuarantined = "vault.quarantined"
	EventVaultReleased    = "vault.released"
)

// ReleaseQuarantine ends the vault's quarantine after a person has looked
// (note says what they found): the sequence numbers it found become ones
// payoutd accounts for, and the first chain sync after it books a fall of
// up to the shortfall it found as a withdrawal outside payoutd (a larger
// fall, or one the vault's reservations cannot take, quarantines it
// again). Whatever else changed on the network is judged afresh.
func (g MovementsTx) ReleaseQuarantine(vaultID, note string) (Quarantine, error) {
	tx := g.tx
	q, open, err := tx.openQuarantine(vaultID)
	if err != nil {
		return q, err
	}
	if !open {
		return q, apperr.Errorf(apperr.ErrInvalidState, "vault %s is not quarantined", vaultID)
	}
	res, err := tx.exec(`UPDATE vault_quarantines SET released_at = ?, released_by = ?, release_note = ?
		WHERE id = ? AND released_at IS NULL`, ms(tx.now), tx.Actor, note, q.ID)
	if err != nil {
		return q, err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return q, apperr.Errorf(apperr.ErrInvalidState, "vault %s's quarantine was released meanwhile", vaultID)
	}
	at := tx.now
	q.ReleasedAt, q.ReleasedBy, q.Note = &at, tx.Actor, note
	data := quarantineData(q)
	if err := tx.Audit(q.UserID, q.Livemode, EventVaultReleased, "vault", vaultID, data); err != nil {
		return q, err
	}
	return q, tx.emit(q.UserID, q.Livemode, EventVaultReleased, vaultID, data)
}

// releasedAllowance is the vault's latest released quarantine that no sync
// has judged yet, marking it judged: its shortfall is the fall a person
// accepted, booked at most once (zero Shortfall when there is none).
func (tx *Tx) releasedAllowance(vaultID string) (Quarantine, bool, error) {
	q, err := scanQuarantine(tx.queryRow("SELECT "+quarantineCols+quarantineFrom+
		"WHERE q.vault_id = ? AND q.released_at IS NOT NULL AND q.judged = 0 ORDER BY q.released_at DESC LIMIT 1", vaultID))
	if errors.Is(err, sql.ErrNoRows) {
		return q, false, nil
	}
	if err != nil {
		return q, false, err
	}
	_, err = tx.exec("UPDATE vault_quarantines SET judged = 1 WHERE vault_id = ? AND released_at IS NOT NULL AND judged = 0", vaultID)
	return q, err == nil, err
}

// WaitingToSign lists the vault's payouts that will be signed anew once it
// is released (COMPLIANCE_CHECK or PROCESSING), oldest first: if a
// transaction payoutd does not know paid one of them, it must be resolved
// before the release, or it is paid twice.
func (g Movements) WaitingToSign(ctx context.Context, vaultID string) ([]Payment, error) {
	db := g.db
	return db.payments(ctx, "SELECT "+paymentCols+" FROM payments WHERE vault_id = ? AND status IN (?, ?) ORDER BY created_at, id",
		vaultID, StatusComplianceCheck, StatusProcessing)
}

// VaultPayments lists the vault's payouts that may still be sent:
// COMPLIANCE_CHECK, PROCESSING, FAILED or PENDING, oldest first.
func (g MovementsTx) VaultPayments(vaultID string) ([]Payment, error) {
	tx := g.tx
	rows, err := tx.query("SELECT "+paymentCols+" FROM payments WHERE vault_id = ? AND status IN (?, ?, ?, ?) ORDER BY created_at, id",
		vaultID, StatusComplianceCheck, StatusProcessing, StatusFailed, StatusPending)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Payment
	for rows.Next() {
		p, err := scanPayment(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
