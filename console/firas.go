package console

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

type firasData struct {
	Items []store.FIRA
	Total int
	Next  string
	First bool
	Years []string // the financial years the export form offers, newest first
	FY    string   // the one it starts with: this year
}

// handleFIRAs lists the user's FIRAs newest first, a page at a time.
func (c *Console) handleFIRAs(w http.ResponseWriter, r *http.Request, u user) {
	after := r.URL.Query().Get("after")
	if !strings.HasPrefix(after, "fira_") || len(after) > 64 {
		after = ""
	}
	items, total, err := c.db.Tax().ListFIRAs(r.Context(), store.FIRAFilter{UserID: u.ID, After: after, Page: 1, Limit: pageSize})
	if err != nil {
		c.fail(w, r, err)
		return
	}
	d := firasData{Total: total, First: after != "", FY: india.FYOf(c.db.Now()).String()}
	first, last := india.SupportedYears(c.db.Now())
	for y := last.StartYear; y >= first.StartYear; y-- {
		d.Years = append(d.Years, india.FY{StartYear: y}.String())
	}
	if len(items) > pageSize {
		items = items[:pageSize]
		d.Next = items[len(items)-1].ID
	}
	d.Items = items
	c.render(w, r, http.StatusOK, "firas", page{Title: "FIRAs", Nav: "firas", Data: d})
}

type firaData struct {
	F           store.FIRA
	CountryName string
	SettledDay  string
	Issuer      string
}

// handleFIRA shows one advice as the PDF prints it.
func (c *Console) handleFIRA(w http.ResponseWriter, r *http.Request, u user) {
	f, err := c.db.Tax().FindFIRA(r.Context(), u.ID, r.PathValue("id"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	d := firaData{F: f, CountryName: india.CountryName(f.RemittingCountry), SettledDay: india.DateOf(f.SettledAt),
		Issuer: documents.FIRAIssuer}
	c.render(w, r, http.StatusOK, "fira", page{Title: "FIRA " + f.ID, Nav: "firas", Data: d})
}

// handleFIRAPDF downloads the advice: the same bytes as the API's
// GET /compliance/fira/{id}/pdf.
func (c *Console) handleFIRAPDF(w http.ResponseWriter, r *http.Request, u user) {
	f, err := c.db.Tax().FindFIRA(r.Context(), u.ID, r.PathValue("id"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	pdf, err := documents.RenderFIRA(f.Document())
	if err != nil {
		c.fail(w, r, err)
		return
	}
	download(w, "application/pdf", "FIRA-"+f.ID+".pdf", pdf)
}

// download answers with a file to save.
func download(w http.ResponseWriter, contentType, name string, body []byte) {
	headers(w)
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}
