package console

import (
	"net/http"
	"strings"

	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/kyc"
	"github.com/payoutd/payoutd/store"
)

type settingsData struct {
	Profile      store.Profile
	ProfileForm  map[string]string // as typed, when the form is shown again
	KYC          store.KYC
	Webhooks     []store.WebhookEndpoint
	Keys         []store.APIKey
	EventTypes   []string
	Scopes       []string
	Secret       string // a secret shown this once
	SecretOf     string // what it belongs to
	WebhookForm  input.Webhook
	KeyForm      input.APIKey
	ResubmitLeft int
	NoticeMail   []noticeMailView
	Mail         bool // this server e-mails notices
	// errorIDs places the failed form's field errors where its fields'
	// ids differ from their names.
	errorIDs map[string]string
}

// keyFormIDs are the ids of the key form's fields that another form on
// the page also has.
var keyFormIDs = map[string]string{"name": "key-name"}

// settingsPage reads everything the settings page shows and renders it
// with the given status, a secret to show once, and a form's errors.
func (c *Console) settingsPage(w http.ResponseWriter, r *http.Request, u user, status int, d settingsData, err error) {
	if err := c.readSettings(r, u, &d); err != nil {
		c.fail(w, r, err)
		return
	}
	p := page{Title: "Settings", Nav: "settings", Data: d}
	p.setErrors(err, d.errorIDs)
	c.render(w, r, status, "settings", p)
}

func (c *Console) readSettings(r *http.Request, u user, d *settingsData) error {
	ctx := r.Context()
	var err error
	if d.NoticeMail, err = c.noticeMail(r, u); err != nil {
		return err
	}
	d.Mail = c.cfg.Mail
	if d.Profile, err = c.db.FindProfile(ctx, u.ID); err != nil {
		return err
	}
	if d.KYC, err = c.db.KYCStatus(ctx, u.ID); err != nil {
		return err
	}
	d.ResubmitLeft = kyc.ResubmitsLeft(d.KYC)
	if d.Webhooks, err = c.db.ListWebhookEndpoints(ctx, u.ID); err != nil {
		return err
	}
	if d.Keys, err = c.db.ListAPIKeys(ctx, u.ID); err != nil {
		return err
	}
	d.EventTypes, d.Scopes = store.EventTypes, store.AllScopes
	if d.ProfileForm == nil {
		p := d.Profile
		d.ProfileForm = map[string]string{"name": p.Name, "phone": p.Phone, "pan": p.PAN, "gstin": p.GSTIN,
			"lutNumber": p.LUTNumber, "lutValidUntil": p.LUTValidUntil, "address": p.Address}
	}
	return nil
}

// handleSettings shows the settings, with the secret a write just made
// when this is the page that write sent the browser to (secretOnce).
func (c *Console) handleSettings(w http.ResponseWriter, r *http.Request, u user) {
	ctx := r.Context()
	d := settingsData{Secret: c.sessions.PopString(ctx, keySecret), SecretOf: c.sessions.PopString(ctx, keySecretOf)}
	c.settingsPage(w, r, u, http.StatusOK, d, nil)
}

// profileFields are the profile form's fields, the API's names.
var profileFields = []string{"name", "phone", "pan", "gstin", "lutNumber", "lutValidUntil", "address"}

// handleProfile saves the profile form (input.ProfilePatch and
// UpdateProfile, as PATCH /profile).
func (c *Console) handleProfile(w http.ResponseWriter, r *http.Request, u user) {
	form := map[string]string{}
	values := map[string]*string{}
	for _, f := range profileFields {
		v := strings.TrimSpace(r.PostForm.Get(f))
		if f == "pan" || f == "gstin" || f == "lutNumber" {
			v = strings.ToUpper(v)
		}
		form[f], values[f] = v, &v
	}
	q := input.ProfilePatch{Name: values["name"], Phone: values["phone"], PAN: values["pan"], GSTIN: values["gstin"],
		LUTNumber: values["lutNumber"], LUTValidUntil: values["lutValidUntil"], Address: values["address"]}
	err := textFields(map[string]string{"name": form["name"], "phone": form["phone"], "lutNumber": form["lutNumber"]})
	var patch store.ProfilePatch
	if err == nil {
		patch, err = q.Validate()
	}
	if err == nil {
		err = c.db.WithTx(r.Context(), func(tx *store.Tx) error {
			_, err := tx.UpdateProfile(u.ID, u.Livemode, patch)
			return err
		}, c.txOpts(r, u))
	}
	if _, ok := asStoreError(err); ok {
		c.settingsPage(w, r, u, http.StatusBadRequest, settingsData{ProfileForm: form}, err)
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "Profile saved.")
	http.Redirect(w, r, Prefix+"settings", http.StatusSeeOther)
}

// handleKYCStart starts (or restarts) verification (kyc.Start, as POST
// /kyc/start) and sends the browser into the hosted KYC flow.
func (c *Console) handleKYCStart(w http.ResponseWriter, r *http.Request, u user) {
	var res kyc.Started
	err := c.db.WithTx(r.Context(), func(tx *store.Tx) (err error) {
		res, err = kyc.Start(tx, u.ID, u.Livemode)
		return err
	}, c.txOpts(r, u))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if !res.Started {
		c.flash(r, res.Message)
		http.Redirect(w, r, Prefix+"settings", http.StatusSeeOther)
		return
	}
	http.Redirect(w, r, strings.TrimRight(c.cfg.BaseURL, "/")+"/verify/"+res.Session.ID, http.StatusSeeOther)
}
