package server

import (
	"encoding/json"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/payoutd/payoutd/store"
)

// walletView is one vault as the wallet endpoints show it (camelCase, money
// as decimal strings in the vault's currency; docs/accounts.md).
type walletView struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	VaultType string `json:"vaultType"`
	Currency  string `json:"currency"`
	Balance   string `json:"balance"`
	Reserved  string `json:"reserved"`
	Available string `json:"available"`
	Address   string `json:"address"`
	HasKey    bool   `json:"hasKey"`
	IsDefault bool   `json:"isDefault"`
	Livemode  bool   `json:"livemode"`
	CreatedAt string `json:"createdAt"`
	// Network is a live vault's account on the network (exists, trustline,
	// XLM), when a live rail is configured.
	Network any `json:"network,omitempty"`
	// Blocked is the live vault's transaction in flight with no known
	// outcome, which later payouts from it wait for.
	Blocked *blockedView `json:"blocked,omitempty"`
	// Quarantine says why a quarantined vault signs nothing until an
	// operator releases it.
	Quarantine *quarantineView `json:"quarantine,omitempty"`
	// Track says how far a live vault's movements are read from the
	// chain, and whether they add up to its balance.
	Track *trackView `json:"track,omitempty"`
}

// quarantineView is a vault's open quarantine: which, why, and what is
// known of the transactions payoutd does not know (the same fields as the
// vault.quarantined event's data).
type quarantineView struct {
	ID                  string   `json:"id"`
	Since               string   `json:"since"`
	Reasons             []string `json:"reasons"`
	Description         string   `json:"description"`
	ChainSequence       string   `json:"chainSequence"`
	KnownSequence       string   `json:"knownSequence"`
	UnknownTransactions int64    `json:"unknownTransactions"`
	Shortfall           string   `json:"shortfall"`
	Ledger              int64    `json:"ledger"`
	LastModifiedLedger  int64    `json:"lastModifiedLedger"`
	// UnknownTransactionHashes are the unknown transactions found in
	// the ledger that last changed the account.
	UnknownTransactionHashes []string `json:"unknownTransactionHashes"`
	// OutsideTransfers are the transfers out that no payout explains.
	OutsideTransfers []outsideView `json:"outsideTransfers"`
}

// outsideView is a transfer out of a vault's account that payoutd did not
// make.
type outsideView struct {
	TransactionHash string      `json:"transactionHash"`
	Destination     string      `json:"destination"`
	Amount          json.Number `json:"amount"`
	AmountMinor     int64       `json:"amountMinor"`
	Currency        string      `json:"currency"`
	Ledger          int64       `json:"ledger"`
	LedgerClosedAt  string      `json:"ledgerClosedAt"`
	Memo            string      `json:"memo"`
}

func viewQuarantine(q store.Quarantine) *quarantineView {
	return &quarantineView{ID: q.ID, Since: ts(q.CreatedAt), Reasons: q.Reasons, Description: q.Describe(),
		ChainSequence: strconv.FormatInt(q.ChainSeq, 10), KnownSequence: strconv.FormatInt(q.KnownSeq, 10),
		UnknownTransactions: q.UnknownTxs(), Shortfall: string(amountJSON(q.Shortfall, q.Currency)), Ledger: q.Ledger,
		LastModifiedLedger: q.LastModified, UnknownTransactionHashes: q.UnknownHashes(), OutsideTransfers: viewOutside(q.Outside)}
}

func viewOutside(list []store.Movement) []outsideView {
	out := make([]outsideView, 0, len(list))
	for _, m := range list {
		out = append(out, outsideView{TransactionHash: m.TxHash, Destination: m.Counterparty, Amount: amountJSON(m.Amount, m.Currency),
			AmountMinor: m.Amount, Currency: m.Currency, Ledger: m.Ledger, LedgerClosedAt: ts(m.ClosedAt), Memo: m.Memo})
	}
	return out
}

// withQuarantine adds the vault's open quarantine, if any, to its view.
func withQuarantine(view walletView, qs map[string]store.Quarantine) walletView {
	if q, ok := qs[view.ID]; ok {
		view.Quarantine = viewQuarantine(q)
	}
	return view
}

// viewWallet renders a vault; hasKey is whether its signing key really opens
// (store.UsableVaultKeys), not merely whether one is stored.
func viewWallet(v store.Vault, hasKey bool) walletView {
	dec := func(minor int64) string { return string(amountJSON(minor, v.Currency)) }
	return walletView{ID: v.ID, Name: v.Name, VaultType: v.Type, Currency: v.Currency, Balance: dec(v.Balance),
		Reserved: dec(v.Reserved), Available: dec(v.Available()), Address: v.Address, HasKey: v.HasKey && hasKey,
		IsDefault: v.IsDefault, Livemode: v.Livemode, CreatedAt: ts(v.CreatedAt)}
}

func (s *Server) usableKeys(c *call) (map[string]bool, error) {
	return s.db.Vaults().UsableVaultKeys(c.r.Context(), c.p.UserID, s.cfg.Sealer)
}

// handleWalletList lists the caller's vaults, oldest first.
func (s *Server) handleWalletList(w http.ResponseWriter, c *call) error {
	vaults, err := s.db.Vaults().ListVaults(c.r.Context(), c.p.UserID)
	if err != nil {
		return err
	}
	keys, err := s.usableKeys(c)
	if err != nil {
		return err
	}
	blocked, err := s.blockedVaults(c.r.Context(), &c.p)
	if err != nil {
		return err
	}
	qs, err := s.db.Movements().UserQuarantines(c.r.Context(), c.p.UserID)
	if err != nil {
		return err
	}
	out := make([]walletView, 0, len(vaults))
	for _, v := range vaults {
		view := s.withNetwork(c.r.Context(), v, viewWallet(v, keys[v.ID]))
		view.Blocked = blocked[v.ID]
		if view, err = s.withTrack(c.r.Context(), v, view); err != nil {
			return err
		}
		out = append(out, withQuarantine(view, qs))
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "wallets": out})
	return nil
}

// handleWalletGet is 404 ERR_WALLET_NOT_FOUND for unknown ids and for other
// users' vaults alike.
func (s *Server) handleWalletGet(w http.ResponseWriter, c *call) error {
	v, err := s.db.Vaults().FindVault(c.r.Context(), c.p.UserID, c.r.PathValue("id"))
	if err != nil {
		return err
	}
	keys, err := s.usableKeys(c)
	if err != nil {
		return err
	}
	blocked, err := s.blockedVaults(c.r.Context(), &c.p)
	if err != nil {
		return err
	}
	qs, err := s.db.Movements().UserQuarantines(c.r.Context(), c.p.UserID)
	if err != nil {
		return err
	}
	view := s.withNetwork(c.r.Context(), v, viewWallet(v, keys[v.ID]))
	view.Blocked = blocked[v.ID]
	view = withQuarantine(view, qs)
	if view, err = s.withTrack(c.r.Context(), v, view); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "wallet": view})
	return nil
}

type currencyTotal struct {
	Currency  string `json:"currency"`
	Balance   string `json:"balance"`
	Reserved  string `json:"reserved"`
	Available string `json:"available"`
	Wallets   int    `json:"wallets"`
}

// indicativeINR values the balances at the configured sandbox/indicative
// rates; currencies without a rate are listed, not guessed.
type indicativeINR struct {
	Total    string            `json:"total"`
	Currency string            `json:"currency"`
	Rates    map[string]string `json:"rates"`
	Unpriced []string          `json:"unpriced"`
	Note     string            `json:"note"`
}

// handleWalletSummary totals the balances per currency and gives an
// indicative INR value of them all.
func (s *Server) handleWalletSummary(w http.ResponseWriter, c *call) error {
	vaults, err := s.db.Vaults().ListVaults(c.r.Context(), c.p.UserID)
	if err != nil {
		return err
	}
	type sums struct{ balance, reserved int64 }
	per := map[string]*sums{}
	count := map[string]int{}
	for _, v := range vaults {
		if per[v.Currency] == nil {
			per[v.Currency] = &sums{}
		}
		per[v.Currency].balance += v.Balance
		per[v.Currency].reserved += v.Reserved
		count[v.Currency]++
	}
	codes := make([]string, 0, len(per))
	for code := range per {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	totals := make([]currencyTotal, 0, len(codes))
	inr := indicativeINR{Currency: "INR", Rates: map[string]string{}, Unpriced: []string{},
		Note: "indicative only: balances valued at the configured reference rates, not a settlement quote"}
	var inrTotal int64
	for _, code := range codes {
		t := per[code]
		dec := func(minor int64) string { return string(amountJSON(minor, code)) }
		totals = append(totals, currencyTotal{Currency: code, Balance: dec(t.balance), Reserved: dec(t.reserved),
			Available: dec(t.balance - t.reserved), Wallets: count[code]})
		paise, rate, err := s.cfg.Rates.ToINR(t.balance, code)
		if err != nil || paise > math.MaxInt64-inrTotal {
			inr.Unpriced = append(inr.Unpriced, code)
			continue
		}
		inrTotal += paise
		inr.Rates[code] = rate.String()
	}
	inr.Total = string(amountJSON(inrTotal, "INR"))
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "walletCount": len(vaults), "totals": totals,
		"indicativeInr": inr, "asOf": ts(s.db.Now())})
	return nil
}

type walletCreateRequest struct {
	Currency string `json:"currency"`
	Name     string `json:"name"`
}

// handleWalletCreate adds a vault in another currency (one per currency;
// 409 ERR_CONFLICT for a second), starting at a zero balance.
func (s *Server) handleWalletCreate(w http.ResponseWriter, c *call) error {
	var q walletCreateRequest
	if err := c.decode(&q); err != nil {
		return err
	}
	q.Name = strings.TrimSpace(q.Name)
	err := asFieldErrors(validation.ValidateStruct(&q,
		validation.Field(&q.Currency, validation.Required, validation.Length(3, 3).Error("must be exactly 3 characters"), isCurrency),
		validation.Field(&q.Name, validation.RuneLength(0, 100)),
	))
	if err != nil {
		return err
	}
	if q.Name == "" {
		q.Name = q.Currency + " vault"
	}
	return s.reply(w, c, http.StatusCreated, func(tx *store.Tx) (any, error) {
		v, err := tx.Vaults().AddVault(store.User{ID: c.p.UserID, Livemode: c.p.Livemode}, q.Name, q.Currency, s.cfg.Sealer)
		// The key was sealed a moment ago with the sealer that will open it.
		return map[string]any{"success": true, "wallet": viewWallet(v, true)}, err
	})
}
