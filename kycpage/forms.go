package kycpage

import (
	"crypto/subtle"
	"errors"
	"io"
	"net/http"
	"path"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/kyc"
	"github.com/payoutd/payoutd/store"
)

// maxDocumentBytes is the largest identity document accepted (5 MiB).
const maxDocumentBytes = 5 << 20

// docKind is one kind of identity document the upload step offers.
type docKind struct{ Value, Label string }

var docKinds = []docKind{
	{"pan_card", "PAN card"}, {"passport", "Passport"}, {"aadhaar", "Aadhaar card"},
	{"driving_licence", "Driving licence"}, {"voter_id", "Voter ID card"},
}

// allowedDocTypes are the sniffed types accepted; the browser's claimed type
// and the file name are not trusted.
var allowedDocTypes = map[string]bool{"application/pdf": true, "image/jpeg": true, "image/png": true}

// identityForm is the first step's fields, as typed.
type identityForm struct{ FullName, PAN, DOB string }

// handlePost takes the page's three forms (identity details, the document,
// and a resubmission after a rejection). Each success redirects to the page
// (POST/redirect/GET), so a reload never sends a form twice.
func (v *Page) handlePost(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxDocumentBytes+64<<10)
	sess, k, ok := v.open(w, r, false)
	if !ok {
		return
	}
	var err error
	upload := strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data")
	if upload {
		err = r.ParseMultipartForm(maxDocumentBytes + 64<<10)
		if r.MultipartForm != nil {
			defer r.MultipartForm.RemoveAll()
		}
	} else {
		err = r.ParseForm()
	}
	var tooBig *http.MaxBytesError
	if upload && errors.As(err, &tooBig) {
		// Nothing is stored, so the form is shown again without its token checked.
		v.formError(w, r, sess, k, http.StatusRequestEntityTooLarge, "document", "The file is larger than 5 MB. Choose a smaller file.")
		return
	}
	want := v.sessions.GetString(r.Context(), "csrf")
	if err != nil || want == "" || subtle.ConstantTimeCompare([]byte(r.PostFormValue("csrf")), []byte(want)) != 1 {
		v.problem(w, r, problemStale)
		return
	}
	switch r.PostFormValue("action") {
	case "identity":
		v.postIdentity(w, r, sess, k)
	case "document":
		v.postDocument(w, r, sess, k)
	case "resubmit":
		v.postResubmit(w, r, sess, k)
	default:
		v.problem(w, r, problemStale)
	}
}

// afterPost sends the browser back to the page; a form that no longer fits
// the state (a double submit, a second tab) just shows where things are.
func (v *Page) afterPost(w http.ResponseWriter, r *http.Request, sessionID string, err error) {
	if err != nil && apperr.Code(err) != apperr.ErrInvalidState {
		v.internalError(w, r, err)
		return
	}
	http.Redirect(w, r, "/verify/"+sessionID, http.StatusSeeOther)
}

func (v *Page) postIdentity(w http.ResponseWriter, r *http.Request, sess store.KYCSession, k store.KYC) {
	f := identityForm{
		FullName: strings.Join(strings.Fields(r.PostFormValue("fullName")), " "),
		PAN:      strings.ToUpper(strings.TrimSpace(r.PostFormValue("pan"))),
		DOB:      strings.TrimSpace(r.PostFormValue("dob")),
	}
	if problems := f.validate(v.cfg.DB.Now()); len(problems) > 0 {
		d, err := v.pageFor(r, sess, k, true)
		if err != nil {
			v.internalError(w, r, err)
			return
		}
		d.Form = f
		d.setErrors(problems)
		v.render(w, r, http.StatusBadRequest, d)
		return
	}
	err := v.cfg.DB.WithTx(r.Context(), func(tx *store.Tx) error {
		return kyc.SaveIdentity(tx, sess.ID, store.KYCIdentity{FullName: f.FullName, PAN: f.PAN, DOB: f.DOB})
	}, store.WithActor("verify:"+sess.ID, v.cfg.RequestID(r)))
	v.afterPost(w, r, sess.ID, err)
}

// validate checks the identity details; the messages say how to fix them.
func (f identityForm) validate(now time.Time) []fieldProblem {
	var out []fieldProblem
	switch n := utf8.RuneCountInString(f.FullName); {
	case n == 0:
		out = append(out, fieldProblem{"fullName", "Enter your full name as it appears on your PAN card."})
	case n < 2 || n > 100:
		out = append(out, fieldProblem{"fullName", "Your full name must be between 2 and 100 characters."})
	case strings.IndexFunc(f.FullName, func(c rune) bool {
		return !unicode.IsLetter(c) && !unicode.Is(unicode.Mn, c) && !strings.ContainsRune(" .'-", c)
	}) >= 0:
		out = append(out, fieldProblem{"fullName", "Use letters, spaces, full stops, apostrophes and hyphens only."})
	}
	if f.PAN == "" {
		out = append(out, fieldProblem{"pan", "Enter your PAN."})
	} else if india.ValidatePAN(f.PAN) != nil {
		out = append(out, fieldProblem{"pan", "Enter a valid PAN: 5 letters, 4 digits and a letter, like ABCPE1234F."})
	}
	dob, err := time.Parse("2006-01-02", f.DOB)
	switch {
	case f.DOB == "":
		out = append(out, fieldProblem{"dob", "Enter your date of birth."})
	case err != nil:
		out = append(out, fieldProblem{"dob", "Enter a real date of birth, for example 17 May 1990."})
	case dob.Year() < 1900 || dob.After(now):
		out = append(out, fieldProblem{"dob", "Enter your date of birth between 1900 and today."})
	case dob.AddDate(18, 0, 0).After(now):
		out = append(out, fieldProblem{"dob", "You must be 18 or older to verify."})
	}
	return out
}

func (d *pageData) setErrors(problems []fieldProblem) {
	d.ErrorList, d.Errors = problems, map[string]string{}
	for _, p := range problems {
		d.Errors[p.Field] = p.Message
	}
}

// formError shows the upload step again with one problem.
func (v *Page) formError(w http.ResponseWriter, r *http.Request, sess store.KYCSession, k store.KYC, status int, field, msg string) {
	d, err := v.pageFor(r, sess, k, false)
	if err != nil {
		v.internalError(w, r, err)
		return
	}
	d.Kind = r.PostFormValue("kind")
	d.setErrors([]fieldProblem{{field, msg}})
	v.render(w, r, status, d)
}

func (v *Page) postDocument(w http.ResponseWriter, r *http.Request, sess store.KYCSession, k store.KYC) {
	kind := r.PostFormValue("kind")
	known := false
	for _, dk := range docKinds {
		known = known || dk.Value == kind
	}
	if !known {
		v.formError(w, r, sess, k, http.StatusBadRequest, "kind", "Choose which document you are uploading.")
		return
	}
	file, hdr, err := r.FormFile("document")
	if err != nil {
		v.formError(w, r, sess, k, http.StatusBadRequest, "document", "Choose a file to upload.")
		return
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, maxDocumentBytes+1))
	switch {
	case err != nil:
		v.internalError(w, r, err)
		return
	case len(data) == 0:
		v.formError(w, r, sess, k, http.StatusBadRequest, "document", "The file is empty. Choose another file.")
		return
	case len(data) > maxDocumentBytes:
		v.formError(w, r, sess, k, http.StatusRequestEntityTooLarge, "document", "The file is larger than 5 MB. Choose a smaller file.")
		return
	}
	ct := http.DetectContentType(data)
	if !allowedDocTypes[ct] {
		v.formError(w, r, sess, k, http.StatusUnsupportedMediaType, "document", "The file must be a PDF, JPEG or PNG.")
		return
	}
	doc := store.KYCDocument{Kind: kind, Filename: cleanFilename(hdr.Filename), ContentType: ct}
	err = v.cfg.DB.WithTx(r.Context(), func(tx *store.Tx) error {
		_, _, err := kyc.SubmitDocument(tx, sess.ID, doc, data, v.cfg.Sealer)
		return err
	}, store.WithActor("verify:"+sess.ID, v.cfg.RequestID(r)))
	v.afterPost(w, r, sess.ID, err)
}

// cleanFilename keeps a readable base name for the record: no path, no
// control characters, at most 200 bytes.
func cleanFilename(name string) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	name = strings.Map(func(c rune) rune {
		if unicode.IsControl(c) {
			return -1
		}
		return c
	}, name)
	for len(name) > 200 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	if name == "" || name == "." || name == "/" {
		return "document"
	}
	return name
}

// postResubmit starts the next attempt after a rejection from the page
// itself: a new link (as POST /kyc/start would give), bound to this browser.
func (v *Page) postResubmit(w http.ResponseWriter, r *http.Request, sess store.KYCSession, k store.KYC) {
	if k.Status != store.KYCRejected {
		v.afterPost(w, r, sess.ID, nil)
		return
	}
	var next kyc.Started
	err := v.cfg.DB.WithTx(r.Context(), func(tx *store.Tx) (err error) {
		if next, err = kyc.Start(tx, sess.UserID, sess.Livemode); err != nil {
			return err
		}
		_, err = tx.People().ClaimKYCSession(next.Session)
		return err
	}, store.WithActor("verify:"+sess.ID, v.cfg.RequestID(r)))
	if err != nil {
		v.afterPost(w, r, sess.ID, err)
		return
	}
	if err := v.sessions.RenewToken(r.Context()); err != nil {
		v.internalError(w, r, err)
		return
	}
	v.sessions.Put(r.Context(), bindKey(next.Session.ID), true)
	http.Redirect(w, r, "/verify/"+next.Session.ID, http.StatusSeeOther)
}

// prefill is the identity form as last given (a resubmission starts from it).
func (v *Page) prefill(r *http.Request, userID string) (identityForm, error) {
	id, err := v.cfg.DB.People().KYCIdentityOf(r.Context(), userID)
	return identityForm{FullName: id.FullName, PAN: id.PAN, DOB: id.DOB}, err
}
