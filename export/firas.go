package export

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// Period is the settlement times of a financial year (quarter 0) or of one
// of its quarters (1 is April to June, 4 January to March), in IST.
func Period(fy india.FY, quarter int) (from, to time.Time, err error) {
	if quarter < 0 || quarter > 4 {
		return time.Time{}, time.Time{}, fmt.Errorf("quarter %d is not 1 to 4", quarter)
	}
	if quarter == 0 {
		return fy.Start(), fy.End(), nil
	}
	from = fy.Start().In(india.IST).AddDate(0, 3*(quarter-1), 0)
	return from, from.AddDate(0, 3, 0).Add(-time.Millisecond), nil
}

// eachFIRA calls fn with every FIRA f matches, a chunk at a time, after
// which done lets the caller pass what it wrote on.
func eachFIRA(ctx context.Context, db *store.DB, f store.FIRAFilter, fn func(store.FIRA) error, done func() error) error {
	f.After, f.Page, f.Limit, f.SkipTotal = "", 1, chunk, true
	for {
		fs, _, err := db.Tax().ListFIRAs(ctx, f)
		if err != nil {
			return err
		}
		for _, fira := range fs[:min(len(fs), chunk)] {
			if err := fn(fira); err != nil {
				return err
			}
		}
		if err := done(); err != nil || len(fs) <= chunk {
			return err
		}
		f.After = fs[chunk-1].ID
	}
}

// FIRAs writes every FIRA f matches, newest first.
func FIRAs(ctx context.Context, w io.Writer, db *store.DB, f store.FIRAFilter) error {
	t, err := newTable(w, "FIRA", "Payout", "Settled (IST)", "Remitter", "Remitting country", "Remitting bank",
		"Foreign amount", "Currency", "Rate", "INR", "Purpose code", "Purpose", "Invoice", "Settlement reference")
	if err != nil {
		return err
	}
	return eachFIRA(ctx, db, f, func(x store.FIRA) error {
		return t.row(x.ID, x.PaymentID, istTime(&x.SettledAt), text(x.RemitterName), x.RemittingCountry, text(x.RemittingBank),
			decimal(x.AmountForeign, x.ForeignCurrency), x.ForeignCurrency, x.SettlementRate, decimal(x.AmountINR, "INR"),
			x.PurposeCode, x.PurposeDescription, text(x.InvoiceRef), text(x.SettlementRef))
	}, t.flush)
}

// FIRAZip writes a ZIP holding the PDF of every FIRA f matches (the same
// bytes as each one's download), one after another as they are rendered.
func FIRAZip(ctx context.Context, w io.Writer, db *store.DB, f store.FIRAFilter) error {
	zw := zip.NewWriter(w)
	err := eachFIRA(ctx, db, f, func(x store.FIRA) error {
		pdf, err := documents.RenderFIRA(x.Document())
		if err != nil {
			return err
		}
		// Stored, not deflated: a PDF barely shrinks, and storing costs
		// no CPU.
		e, err := zw.CreateHeader(&zip.FileHeader{Name: "FIRA-" + x.ID + ".pdf", Method: zip.Store, Modified: x.GeneratedAt})
		if err != nil {
			return err
		}
		_, err = e.Write(pdf)
		return err
	}, func() error {
		if err := zw.Flush(); err != nil {
			return err
		}
		if fl, ok := w.(interface{ Flush() }); ok {
			fl.Flush()
		}
		return nil
	})
	if err != nil {
		return err
	}
	return zw.Close()
}
