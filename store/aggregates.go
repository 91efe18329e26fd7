package store

// The store's methods are grouped by aggregate: db.Payments().FindPayment,
// tx.Payments().Transition. Each aggregate has one type for reads outside
// a transaction (on *DB) and one for work inside one (on *Tx), with the
// same accessor name on both. DB and Tx keep what every aggregate shares:
// transactions, the clock, the audit row, jobs, snapshots, the schema and
// backups.

// Keys holds API keys, the console's sign-in links and the vaults' signing
// keys.
type Keys struct{ db *DB }

// Keys is the keys aggregate, read outside a transaction.
func (db *DB) Keys() Keys { return Keys{db} }

// KeysTx is Keys inside a transaction.
type KeysTx struct{ tx *Tx }

// Keys is the keys aggregate, in this transaction.
func (tx *Tx) Keys() KeysTx { return KeysTx{tx} }

// History reads the audit log and the event log.
type History struct{ db *DB }

// History is the history aggregate, read outside a transaction.
func (db *DB) History() History { return History{db} }

// Payments holds payouts: creation, moves along the state machine,
// confirmation, attention flags, lists, idempotent responses and
// sequestration policies.
type Payments struct{ db *DB }

// Payments is the payments aggregate, read outside a transaction.
func (db *DB) Payments() Payments { return Payments{db} }

// PaymentsTx is Payments inside a transaction.
type PaymentsTx struct{ tx *Tx }

// Payments is the payments aggregate, in this transaction.
func (tx *Tx) Payments() PaymentsTx { return PaymentsTx{tx} }

// Vaults holds vaults, their funding and sandbox deposits, and the deposits
// linked to a payout.
type Vaults struct{ db *DB }

// Vaults is the vaults aggregate, read outside a transaction.
func (db *DB) Vaults() Vaults { return Vaults{db} }

// VaultsTx is Vaults inside a transaction.
type VaultsTx struct{ tx *Tx }

// Vaults is the vaults aggregate, in this transaction.
func (tx *Tx) Vaults() VaultsTx { return VaultsTx{tx} }

// Chain holds what payoutd sent to and read from the Stellar network:
// submissions, trustline attempts, the bound network and each vault's chain
// reads.
type Chain struct{ db *DB }

// Chain is the chain aggregate, read outside a transaction.
func (db *DB) Chain() Chain { return Chain{db} }

// ChainTx is Chain inside a transaction.
type ChainTx struct{ tx *Tx }

// Chain is the chain aggregate, in this transaction.
func (tx *Tx) Chain() ChainTx { return ChainTx{tx} }

// Movements holds each live vault's movements read from the chain, its
// track of ledgers and its quarantines.
type Movements struct{ db *DB }

// Movements is the movements aggregate, read outside a transaction.
func (db *DB) Movements() Movements { return Movements{db} }

// MovementsTx is Movements inside a transaction.
type MovementsTx struct{ tx *Tx }

// Movements is the movements aggregate, in this transaction.
func (tx *Tx) Movements() MovementsTx { return MovementsTx{tx} }

// Ledger holds the double-entry ledger: accounts, entries, settlements
// (booked at once, or valued when a rate arrives) and reconciliations.
type Ledger struct{ db *DB }

// Ledger is the ledger aggregate, read outside a transaction.
func (db *DB) Ledger() Ledger { return Ledger{db} }

// LedgerTx is Ledger inside a transaction.
type LedgerTx struct{ tx *Tx }

// Ledger is the ledger aggregate, in this transaction.
func (tx *Tx) Ledger() LedgerTx { return LedgerTx{tx} }

// Tax holds tax figures, tax payments, FIRAs and the rates recorded for
// GST.
type Tax struct{ db *DB }

// Tax is the tax aggregate, read outside a transaction.
func (db *DB) Tax() Tax { return Tax{db} }

// TaxTx is Tax inside a transaction.
type TaxTx struct{ tx *Tx }

// Tax is the tax aggregate, in this transaction.
func (tx *Tx) Tax() TaxTx { return TaxTx{tx} }

// Invoices holds export invoices, credit notes, LUTs, realisation flags and
// the clients invoices are made out to.
type Invoices struct{ db *DB }

// Invoices is the invoices aggregate, read outside a transaction.
func (db *DB) Invoices() Invoices { return Invoices{db} }

// InvoicesTx is Invoices inside a transaction.
type InvoicesTx struct{ tx *Tx }

// Invoices is the invoices aggregate, in this transaction.
func (tx *Tx) Invoices() InvoicesTx { return InvoicesTx{tx} }

// People holds users, profiles and KYC: sessions, identities, documents and
// recorded moves.
type People struct{ db *DB }

// People is the people aggregate, read outside a transaction.
func (db *DB) People() People { return People{db} }

// PeopleTx is People inside a transaction.
type PeopleTx struct{ tx *Tx }

// People is the people aggregate, in this transaction.
func (tx *Tx) People() PeopleTx { return PeopleTx{tx} }

// Webhooks holds webhook endpoints, their signing secrets and delivery
// attempts.
type Webhooks struct{ db *DB }

// Webhooks is the webhooks aggregate, read outside a transaction.
func (db *DB) Webhooks() Webhooks { return Webhooks{db} }

// WebhooksTx is Webhooks inside a transaction.
type WebhooksTx struct{ tx *Tx }

// Webhooks is the webhooks aggregate, in this transaction.
func (tx *Tx) Webhooks() WebhooksTx { return WebhooksTx{tx} }

// Notices holds the notices shown to a user and the mails that announce
// them.
type Notices struct{ db *DB }

// Notices is the notices aggregate, read outside a transaction.
func (db *DB) Notices() Notices { return Notices{db} }

// NoticesTx is Notices inside a transaction.
type NoticesTx struct{ tx *Tx }

// Notices is the notices aggregate, in this transaction.
func (tx *Tx) Notices() NoticesTx { return NoticesTx{tx} }

// Bench seeds and reads what payoutd bench measures: a settled history,
// scratch tables, payouts in flight and finished, audit times.
type Bench struct{ db *DB }

// Bench is the bench aggregate, read outside a transaction.
func (db *DB) Bench() Bench { return Bench{db} }

// Health answers what payoutd check, /readyz and the metrics ask of the
// file: its integrity, sealed secrets, write health, and payouts and jobs
// counted by state.
type Health struct{ db *DB }

// Health is the health aggregate, read outside a transaction.
func (db *DB) Health() Health { return Health{db} }
