package server

import (
	"net/http"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/store"
)

// clientRoutes registers the clients a user is paid by.
func (s *Server) clientRoutes() {
	const pw, pr = "payments:write", "payments:read"
	s.api("POST /api/v1/clients", routeOpts{scope: pw, idempotent: true}, s.handleClientCreate)
	s.api("GET /api/v1/clients", routeOpts{scope: pr}, s.handleClientList)
	s.api("GET /api/v1/clients/{id}", routeOpts{scope: pr}, s.handleClientGet)
	s.api("PUT /api/v1/clients/{id}", routeOpts{scope: pw, idempotent: true}, s.handleClientUpdate)
}

type clientView struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Country     string `json:"country,omitempty"`
	Address     string `json:"address,omitempty"`
	Email       string `json:"email,omitempty"`
	PurposeCode string `json:"purposeCode,omitempty"`
	Currency    string `json:"currency,omitempty"`
	Notes       string `json:"notes,omitempty"`
	Livemode    bool   `json:"livemode"`
	CreatedAt   string `json:"createdAt"`
	UpdatedAt   string `json:"updatedAt"`
}

func viewClient(c store.Client) clientView {
	return clientView{ID: c.ID, Name: c.Name, Country: c.Country, Address: c.Address, Email: c.Email,
		PurposeCode: c.PurposeCode, Currency: c.Currency, Notes: c.Notes, Livemode: c.Livemode,
		CreatedAt: ts(c.CreatedAt), UpdatedAt: ts(c.UpdatedAt)}
}

func (s *Server) handleClientCreate(w http.ResponseWriter, c *call) error {
	var q input.Client
	if err := c.decode(&q); err != nil {
		return err
	}
	cl, err := q.Validate(c.p.UserID, c.p.Livemode)
	if err != nil {
		return err
	}
	return s.reply(w, c, http.StatusCreated, func(tx *store.Tx) (any, error) {
		created, err := tx.Invoices().CreateClient(cl)
		return viewClient(created), err
	})
}

type clientList struct {
	Items []clientView `json:"items"`
}

func (s *Server) handleClientList(w http.ResponseWriter, c *call) error {
	cs, err := s.db.Invoices().ListClients(c.r.Context(), c.p.UserID)
	if err != nil {
		return err
	}
	out := clientList{Items: make([]clientView, 0, len(cs))}
	for _, cl := range cs {
		out.Items = append(out.Items, viewClient(cl))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) handleClientGet(w http.ResponseWriter, c *call) error {
	cl, err := s.db.Invoices().FindClient(c.r.Context(), c.p.UserID, c.r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, viewClient(cl))
	return nil
}

// handleClientUpdate is PUT /clients/{id}: the body is the client as it is
// to be (a field left out is cleared; name is required).
func (s *Server) handleClientUpdate(w http.ResponseWriter, c *call) error {
	var q input.Client
	if err := c.decode(&q); err != nil {
		return err
	}
	cl, err := q.Validate(c.p.UserID, c.p.Livemode)
	if err != nil {
		return err
	}
	cl.ID = c.r.PathValue("id")
	return s.reply(w, c, http.StatusOK, func(tx *store.Tx) (any, error) {
		updated, err := tx.Invoices().UpdateClient(cl)
		return viewClient(updated), err
	})
}

// useClient makes an initiate's payout one for its clientId's client.
func (s *Server) useClient(c *call, q *input.Initiate) error {
	if q.ClientID == "" {
		return nil
	}
	cl, err := s.db.Invoices().FindClient(c.r.Context(), c.p.UserID, q.ClientID)
	if apperr.Code(err) == apperr.ErrNotFound {
		return fieldError("clientId", "is not a client of this account")
	}
	if err != nil {
		return err
	}
	q.UseClient(cl)
	return nil
}
