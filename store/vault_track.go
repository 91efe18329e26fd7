package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Track is how far payoutd has read a live vault's account as movements.
type Track struct {
	VaultID string
	// OpeningStroops is the trustline's balance at OpeningLedger, before
	// the first movement payoutd recorded; 0 OpeningLedger: not tracked yet.
	OpeningStroops, OpeningLedger int64
	// EventsLedger is the last ledger whose events are all recorded.
	EventsLedger int64
	// GapFrom..GapTo are ledgers whose events the RPC server no longer
	// kept when payoutd asked: movements in them may be missing.
	GapFrom, GapTo int64
	// CheckedLedger is the ledger of the last balance check, and
	// MismatchStroops the chain balance minus opening + movements then.
	CheckedLedger, MismatchStroops int64
	// Source is TrackEvents, or TrackBalance while the RPC server serves
	// no events and the balance alone is compared.
	Source    string
	UpdatedAt time.Time
}

// Track sources.
const (
	TrackEvents  = "events"
	TrackBalance = "balance"
)

// Tracked reports a vault whose movements are being recorded.
func (t Track) Tracked() bool { return t.OpeningLedger > 0 }

// Gap reports ledgers whose events are missing.
func (t Track) Gap() bool { return t.GapFrom > 0 && t.GapTo >= t.GapFrom }

const trackCols = "vault_id, opening_stroops, opening_ledger, events_ledger, gap_from, gap_to, checked_ledger, mismatch_stroops, source, updated_at"

func scanTrack(row interface{ Scan(...any) error }) (Track, error) {
	var t Track
	var updated int64
	err := row.Scan(&t.VaultID, &t.OpeningStroops, &t.OpeningLedger, &t.EventsLedger, &t.GapFrom, &t.GapTo, &t.CheckedLedger,
		&t.MismatchStroops, &t.Source, &updated)
	t.UpdatedAt = fromMS(updated)
	return t, err
}

// Track reads the vault's track (zero when not tracked yet).
func (g Movements) Track(ctx context.Context, vaultID string) (Track, error) {
	db := g.db
	t, err := scanTrack(db.queryRow(ctx, "SELECT "+trackCols+" FROM vault_tracks WHERE vault_id = ?", vaultID))
	if errors.Is(err, sql.ErrNoRows) {
		return Track{VaultID: vaultID}, nil
	}
	return t, err
}

// Track reads the vault's track in the transaction.
func (g MovementsTx) Track(vaultID string) (Track, error) {
	tx := g.tx
	t, err := scanTrack(tx.queryRow("SELECT "+trackCols+" FROM vault_tracks WHERE vault_id = ?", vaultID))
	if errors.Is(err, sql.ErrNoRows) {
		return Track{VaultID: vaultID}, nil
	}
	return t, err
}

// SaveTrack writes the vault's track; its gap is moved only by WidenGap
// and CloseGap, and its events ledger only forward, so two reads of the
// vault at once (the server's sync, an operator's resync) cannot undo
// each other.
func (g MovementsTx) SaveTrack(t Track) error {
	tx := g.tx
	if t.Source == "" {
		t.Source = TrackEvents
	}
	_, err := tx.exec(`INSERT INTO vault_tracks (`+trackCols+`) VALUES (?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT (vault_id) DO UPDATE SET opening_stroops = excluded.opening_stroops, opening_ledger = excluded.opening_ledger,
		events_ledger = max(events_ledger, excluded.events_ledger), checked_ledger = excluded.checked_ledger,
		mismatch_stroops = excluded.mismatch_stroops, source = excluded.source, updated_at = excluded.updated_at`,
		t.VaultID, t.OpeningStroops, t.OpeningLedger, t.EventsLedger, t.GapFrom, t.GapTo, t.CheckedLedger, t.MismatchStroops, t.Source, ms(tx.now))
	return err
}

// WidenGap records ledgers from..to as missing from the vault's events,
// joined to the gap it has.
func (g MovementsTx) WidenGap(vaultID string, from, to int64) error {
	tx := g.tx
	_, err := tx.exec(`UPDATE vault_tracks SET gap_from = CASE WHEN gap_from = 0 THEN ?1 ELSE min(gap_from, ?1) END,
		gap_to = max(gap_to, ?2) WHERE vault_id = ?3`, from, to, vaultID)
	return err
}

// CloseGap clears the vault's gap: its events were read again, from
// ledger from on, from an RPC server that kept them.
func (g MovementsTx) CloseGap(vaultID string, from int64) error {
	tx := g.tx
	_, err := tx.exec("UPDATE vault_tracks SET gap_from = 0, gap_to = 0 WHERE vault_id = ? AND gap_from >= ?", vaultID, from)
	return err
}

// TrackTrouble is a vault whose movements payoutd cannot vouch for: a gap
// in its events, a balance that does not add up, or no events at all.
type TrackTrouble struct {
	Track
	UserID, Currency, Address string
}

// TrackTroubles lists every live vault with a gap, a mismatch or no
// events (/readyz, payoutd check, metrics).
func (g Movements) TrackTroubles(ctx context.Context) ([]TrackTrouble, error) {
	db := g.db
	rows, err := db.query(ctx, `SELECT t.vault_id, t.opening_stroops, t.opening_ledger, t.events_ledger, t.gap_from, t.gap_to, t.checked_ledger,
		t.mismatch_stroops, t.source, t.updated_at, v.user_id, v.currency, v.address FROM vault_tracks t JOIN vaults v ON v.id = t.vault_id
		WHERE t.gap_from > 0 OR t.mismatch_stroops != 0 OR t.source != 'events' ORDER BY t.vault_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []TrackTrouble
	for rows.Next() {
		var tt TrackTrouble
		if tt.Track, err = scanTrack(rowWith{rows, []any{&tt.UserID, &tt.Currency, &tt.Address}}); err != nil {
			return nil, err
		}
		out = append(out, tt)
	}
	return out, rows.Err()
}

// Describe says what payoutd cannot vouch for in the vault's movements,
// and what closes it.
func (t Track) Describe() string {
	switch {
	case t.Source == TrackBalance:
		return "the Stellar RPC server serves no events: the vault's balance is compared with the books instead (fallback), so a deposit is " +
			"booked without its sender and nothing is booked while a payout is in flight; point -stellar-rpc at a server with getEvents"
	case t.Gap():
		return fmt.Sprintf("the chain's events of ledgers %d to %d were no longer kept by the RPC server when payoutd asked, so movements in "+
			"them may be missing and nothing is booked for them; run payoutd vaults resync %s --from-ledger %d -stellar-rpc URL with an RPC "+
			"server that keeps them", t.GapFrom, t.GapTo, t.VaultID, t.GapFrom)
	case t.MismatchStroops != 0:
		return fmt.Sprintf("the balance on the network at ledger %d differs by %d stroops from the opening balance plus the movements recorded; "+
			"nothing is booked for the difference: if payoutd was off for longer than the RPC server keeps events, run payoutd vaults resync %s "+
			"--from-ledger N -stellar-rpc URL with an RPC server that keeps them", t.CheckedLedger, t.MismatchStroops, t.VaultID)
	}
	return fmt.Sprintf("every movement of the vault's asset is recorded up to ledger %d and adds up to its balance", t.EventsLedger)
}

// rowWith scans a row's leading columns into a scanner's targets and the
// rest into extra.
type rowWith struct {
	row   interface{ Scan(...any) error }
	extra []any
}

func (r rowWith) Scan(dest ...any) error { return r.row.Scan(append(dest, r.extra...)...) }

// LatestLedger is the newest latest ledger an RPC answer reported.
func (g Movements) LatestLedger(ctx context.Context) (int64, error) {
	db := g.db
	var l int64
	err := db.queryRow(ctx, "SELECT coalesce(max(latest_ledger), 0) FROM live_network").Scan(&l)
	return l, err
}

// RaiseLatestLedger records ledger as seen, if newer than what is.
func (g MovementsTx) RaiseLatestLedger(ledger int64) error {
	tx := g.tx
	_, err := tx.exec("UPDATE live_network SET latest_ledger = ? WHERE id = 1 AND latest_ledger < ?", ledger, ledger)
	return err
}

// AppliedSeq is the highest sequence number of the vault's account used by
// a transaction payoutd recorded as in a ledger: an account read below it
// comes from a node that is behind.
func (g Movements) AppliedSeq(ctx context.Context, vaultID string) (int64, error) {
	db := g.db
	var s int64
	err := db.queryRow(ctx, "SELECT coalesce(max(seq), 0) FROM stellar_submissions WHERE vault_id = ? AND state IN ('SUCCESS', 'FAILED')", vaultID).Scan(&s)
	return s, err
}
