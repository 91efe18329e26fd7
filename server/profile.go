package server

import (
	"net/http"
	"regexp"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/store"
)

// profileView is the camelCase Profile (GET /profile).
type profileView struct {
	ID        string `json:"id"`
	Email     string `json:"email"`
	Name      string `json:"name"`
	Phone     string `json:"phone"`
	CreatedAt string `json:"createdAt"`
}

// handleProfileGet is 404 ERR_PROFILE_NOT_FOUND until setup is completed
// (a name given at user creation or through PATCH /profile).
func (s *Server) handleProfileGet(w http.ResponseWriter, c *call) error {
	p, err := s.db.People().FindProfile(c.r.Context(), c.p.UserID)
	if err != nil {
		return err
	}
	if !p.SetupCompleted {
		return apperr.Errorf(apperr.ErrProfileNotFound, "profile setup was never completed; PATCH /profile with a name completes it")
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "profile": profileView{
		ID: p.UserID, Email: p.Email, Name: p.Name, Phone: p.Phone, CreatedAt: ts(p.CreatedAt),
	}})
	return nil
}

// fullProfileView is the snake_case full profile (GET /profile/full).
type fullProfileView struct {
	ID          string       `json:"id"`
	Email       string       `json:"email"`
	DisplayName string       `json:"display_name"`
	FullName    string       `json:"full_name"`
	Phone       string       `json:"phone"`
	CreatedAt   string       `json:"created_at"`
	Vaults      []vaultBrief `json:"vaults"`
}

// vaultBrief is a Vault, in the full profile's snake_case.
type vaultBrief struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	VaultType string `json:"vault_type"`
	Balance   string `json:"balance"`
	Currency  string `json:"currency"`
	CreatedAt string `json:"created_at"`
}

// handleProfileFull answers whether or not setup was completed: it is the
// raw view, and clients need the vault ids before anything else.
// full_name is the legal name given during KYC, display_name the profile name.
func (s *Server) handleProfileFull(w http.ResponseWriter, c *call) error {
	ctx := c.r.Context()
	p, err := s.db.People().FindProfile(ctx, c.p.UserID)
	if err != nil {
		return err
	}
	id, err := s.db.People().KYCIdentityOf(ctx, c.p.UserID)
	if err != nil {
		return err
	}
	vaults, err := s.db.Vaults().ListVaults(ctx, c.p.UserID)
	if err != nil {
		return err
	}
	v := fullProfileView{ID: p.UserID, Email: p.Email, DisplayName: p.Name, FullName: id.FullName, Phone: p.Phone,
		CreatedAt: ts(p.CreatedAt), Vaults: make([]vaultBrief, 0, len(vaults))}
	if v.FullName == "" {
		v.FullName = p.Name
	}
	for _, vt := range vaults {
		v.Vaults = append(v.Vaults, vaultBrief{ID: vt.ID, Name: vt.Name, VaultType: vt.Type,
			Balance: string(amountJSON(vt.Balance, vt.Currency)), Currency: vt.Currency, CreatedAt: ts(vt.CreatedAt)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "profile": v})
	return nil
}

// profileRecord is the raw snake_case row PATCH /profile answers with.
type profileRecord struct {
	ID            string `json:"id"`
	Email         string `json:"email"`
	Name          string `json:"name"`
	Phone         string `json:"phone"`
	CountryCode   string `json:"country_code"`
	HomeCurrency  string `json:"home_currency"`
	GSTIN         string `json:"gstin"`
	PAN           string `json:"pan"`
	LUTNumber     string `json:"lut_number"`
	LUTValidUntil string `json:"lut_valid_until"`
	Address       string `json:"address"`
	// GSTSpecialCategory: the user supplies from a special-category State
	// (GST registration threshold ₹10 lakh instead of ₹20 lakh).
	GSTSpecialCategory bool `json:"gst_special_category_state"`
	// StateCode is the State of the principal place of business as given;
	// GSTState is the one the registration threshold follows (the GSTIN's
	// first, else stateCode), with its name.
	StateCode         string        `json:"state_code"`
	GSTState          *gstStateView `json:"gst_state"`
	GSTRegisteredFrom string        `json:"gst_registered_from"`
	WalletAddress     string        `json:"wallet_address"`
	WalletProvider    string        `json:"wallet_provider"`
	SetupCompleted    bool          `json:"setup_completed"`
	CreatedAt         string        `json:"created_at"`
	UpdatedAt         string        `json:"updated_at"`
}

// gstStateView is a State by its GST state code.
type gstStateView struct {
	Code string `json:"code"`
	Name string `json:"name"`
	// SpecialCategory: the ₹10 lakh registration threshold applies (CGST
	// s.22(1) as amended: Manipur, Mizoram, Nagaland and Tripura).
	SpecialCategory bool `json:"specialCategory"`
}

func viewGSTState(s india.State, ok bool) *gstStateView {
	if !ok {
		return nil
	}
	return &gstStateView{Code: s.Code, Name: s.Name, SpecialCategory: s.SpecialCategory}
}

func recordOf(p store.Profile) profileRecord {
	state, ok := india.StateOfGSTIN(p.GSTIN)
	if !ok {
		state, ok = india.StateOf(p.StateCode)
	}
	return profileRecord{ID: p.UserID, Email: p.Email, Name: p.Name, Phone: p.Phone, CountryCode: p.CountryCode,
		HomeCurrency: p.HomeCurrency, GSTIN: p.GSTIN, PAN: p.PAN, LUTNumber: p.LUTNumber, LUTValidUntil: p.LUTValidUntil,
		Address: p.Address, GSTSpecialCategory: p.GSTSpecialCategory, StateCode: p.StateCode, GSTState: viewGSTState(state, ok),
		GSTRegisteredFrom: p.GSTRegisteredFrom, WalletAddress: p.WalletAddress, WalletProvider: p.WalletProvider, SetupCompleted: p.SetupCompleted,
		CreatedAt: ts(p.CreatedAt), UpdatedAt: ts(p.UpdatedAt)}
}

// handleProfilePatch applies any subset of the fields and answers with the
// raw updated record, not wrapped.
func (s *Server) handleProfilePatch(w http.ResponseWriter, c *call) error {
	var q input.ProfilePatch
	if err := c.decode(&q); err != nil {
		return err
	}
	patch, err := q.Validate()
	if err != nil {
		return err
	}
	var p store.Profile
	err = s.db.WithTx(c.r.Context(), func(tx *store.Tx) (err error) {
		p, err = tx.People().UpdateProfile(c.p.UserID, c.p.Livemode, patch)
		return err
	}, c.txOpts())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, recordOf(p))
	return nil
}

// handleLinkedWalletGet is 404 ERR_NOT_FOUND while no wallet is linked.
func (s *Server) handleLinkedWalletGet(w http.ResponseWriter, c *call) error {
	p, err := s.db.People().FindProfile(c.r.Context(), c.p.UserID)
	if err != nil {
		return err
	}
	if p.WalletAddress == "" {
		return apperr.Errorf(apperr.ErrNotFound, "no wallet is linked; PATCH /profile/link-wallet links one")
	}
	writeJSON(w, http.StatusOK, map[string]string{"walletAddress": p.WalletAddress, "provider": p.WalletProvider})
	return nil
}

// defaultWalletProvider is the built-in provider identifier
// link-wallet defaults to.
const defaultWalletProvider = "payoutd"

var providerRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

type linkWalletRequest struct {
	WalletAddress string `json:"walletAddress"`
	Provider      string `json:"provider"`
}

func (s *Server) handleLinkWallet(w http.ResponseWriter, c *call) error {
	var q linkWalletRequest
	if err := c.decode(&q); err != nil {
		return err
	}
	err := asFieldErrors(validation.ValidateStruct(&q,
		validation.Field(&q.WalletAddress, validation.Required, validation.RuneLength(56, 56).Error("must be exactly 56 characters"), isStellarAddress),
		validation.Field(&q.Provider, validation.RuneLength(0, 64), validation.Match(providerRE).Error("must be lower-case letters, digits, . _ and - only")),
	))
	if err != nil {
		return err
	}
	if q.Provider == "" {
		q.Provider = defaultWalletProvider
	}
	err = s.db.WithTx(c.r.Context(), func(tx *store.Tx) error {
		return tx.People().LinkWallet(c.p.UserID, c.p.Livemode, q.WalletAddress, q.Provider)
	}, c.txOpts())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}
