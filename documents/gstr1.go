package documents

import (
	"time"

	"github.com/payoutd/payoutd/india"
)

// GSTR1Version is the version of the GST portal's GSTR-1 offline tool JSON
// format the export follows, as public GSTR-1 builders write it; the file
// has not been checked against the offline tool itself.
const GSTR1Version = "GST3.0.4"

// GSTR1Doc is one export document of the period: a payoutd invoice, or a
// receipt that carries its own invoice reference. Amounts are paise.
type GSTR1Doc struct {
	Number  string
	Date    string // YYYY-MM-DD
	Taxable int64
	IGST    int64
	WithTax bool // WPAY: exported with payment of IGST; else WOPAY, under a LUT
}

// GSTR1Note is a credit note against an export invoice (CDNUR).
type GSTR1Note struct {
	Number  string
	Date    string
	Taxable int64 // paise, positive: the amount credited
	IGST    int64
	WithTax bool
}

// GSTR1Input is a return period's exports, classified by the caller.
type GSTR1Input struct {
	Period, FP, GSTIN string
	Docs              []GSTR1Doc
	Notes             []GSTR1Note
	// GSTR3B is Table 3.1(b) of GSTR-3B for the same period, which the
	// table 6A totals less the credit notes equal.
	GSTR3BTaxable, GSTR3BIGST int64
	Registration              GSTRegistration
	GeneratedAt               time.Time
}

// GSTR1 is the GET /tax/exports/gstr1 body: the offline tool's keys (gstin,
// fp, version, hash, exp, cdnur), then payoutd's own summary beside them.
type GSTR1 struct {
	GSTIN   string          `json:"gstin"`
	FP      string          `json:"fp"`
	Version string          `json:"version"`
	Hash    string          `json:"hash"`
	Exp     []GSTR1ExpGroup `json:"exp"`
	CDNUR   []GSTR1CDNUR    `json:"cdnur"`
	Payoutd GSTR1Summary    `json:"payoutd"`
}

// GSTR1ExpGroup is the invoices of one export type.
type GSTR1ExpGroup struct {
	ExpTyp string         `json:"exp_typ"`
	Inv    []GSTR1ExpInvc `json:"inv"`
}

// GSTR1ExpInvc is one export invoice; shipping bill fields stay empty for
// services.
type GSTR1ExpInvc struct {
	Inum    string         `json:"inum"`
	Idt     string         `json:"idt"` // DD-MM-YYYY
	Val     INR            `json:"val"`
	Sbpcode string         `json:"sbpcode"`
	Sbnum   string         `json:"sbnum"`
	Sbdt    string         `json:"sbdt"`
	Itms    []GSTR1ExpItem `json:"itms"`
}

// GSTR1ExpItem is an invoice's one rate line.
type GSTR1ExpItem struct {
	Txval INR   `json:"txval"`
	Rt    int64 `json:"rt"`
	Iamt  INR   `json:"iamt"`
	Csamt INR   `json:"csamt"`
}

// GSTR1CDNUR is a credit note to an unregistered (overseas) recipient.
type GSTR1CDNUR struct {
	Typ   string          `json:"typ"`  // EXPWP or EXPWOP
	Ntty  string          `json:"ntty"` // C: credit note
	NtNum string          `json:"nt_num"`
	NtDt  string          `json:"nt_dt"`
	Val   INR             `json:"val"`
	Itms  []GSTR1NoteItem `json:"itms"`
}

// GSTR1NoteItem is a credit note's numbered rate line.
type GSTR1NoteItem struct {
	Num    int64        `json:"num"`
	ItmDet GSTR1ExpItem `json:"itm_det"`
}

// GSTR1Summary is payoutd's own part: table 6A totals, the credit notes,
// their net and GSTR-3B 3.1(b) of the same period, which the net equals.
type GSTR1Summary struct {
	Period       string          `json:"period"`
	Schema       string          `json:"schema"`
	Table6A      GSTR1Totals     `json:"table6A"`
	CreditNotes  GSTR1Totals     `json:"creditNotes"`
	Net          GSTR1Totals     `json:"net"`
	GSTR3B31b    GSTR1Totals     `json:"gstr3b31b"`
	Registration GSTRegistration `json:"registration"`
	GeneratedAt  string          `json:"generatedAt"`
	Rule         string          `json:"rule"`
	AgreesWith3B bool            `json:"agreesWithGstr3b"`
}

// GSTR1Totals is a count with its taxable value and IGST.
type GSTR1Totals struct {
	Documents         int64 `json:"documents"`
	TaxableValue      INR   `json:"taxableValue"`
	TaxableValuePaise int64 `json:"taxableValuePaise"`
	IGST              INR   `json:"igst"`
	IGSTPaise         int64 `json:"igstPaise"`
}

func totals(n int64, taxable, igst int64) GSTR1Totals {
	return GSTR1Totals{Documents: n, TaxableValue: INR(taxable), TaxableValuePaise: taxable, IGST: INR(igst), IGSTPaise: igst}
}

// BuildGSTR1 lays the period out: EXP invoice by invoice under WOPAY (LUT)
// and WPAY (IGST paid), CDNUR for the credit notes, and the totals.
func BuildGSTR1(in GSTR1Input) GSTR1 {
	g := GSTR1{GSTIN: in.GSTIN, FP: in.FP, Version: GSTR1Version, Hash: "hash", Exp: []GSTR1ExpGroup{}, CDNUR: []GSTR1CDNUR{}}
	groups := map[bool]*GSTR1ExpGroup{false: {ExpTyp: "WOPAY"}, true: {ExpTyp: "WPAY"}}
	var taxable, igst int64
	for _, d := range in.Docs {
		groups[d.WithTax].Inv = append(groups[d.WithTax].Inv, GSTR1ExpInvc{Inum: d.Number, Idt: portalDate(d.Date),
			Val: INR(d.Taxable + d.IGST), Itms: []GSTR1ExpItem{{Txval: INR(d.Taxable), Rt: india.IGSTPercent, Iamt: INR(d.IGST)}}})
		taxable, igst = taxable+d.Taxable, igst+d.IGST
	}
	for _, k := range []bool{false, true} {
		if len(groups[k].Inv) > 0 {
			g.Exp = append(g.Exp, *groups[k])
		}
	}
	var cnTaxable, cnIGST int64
	for _, n := range in.Notes {
		typ := "EXPWOP"
		if n.WithTax {
			typ = "EXPWP"
		}
		g.CDNUR = append(g.CDNUR, GSTR1CDNUR{Typ: typ, Ntty: "C", NtNum: n.Number, NtDt: portalDate(n.Date), Val: INR(n.Taxable + n.IGST),
			Itms: []GSTR1NoteItem{{Num: 1, ItmDet: GSTR1ExpItem{Txval: INR(n.Taxable), Rt: india.IGSTPercent, Iamt: INR(n.IGST)}}}})
		cnTaxable, cnIGST = cnTaxable+n.Taxable, cnIGST+n.IGST
	}
	s := &g.Payoutd
	s.Period, s.Registration, s.GeneratedAt = in.Period, in.Registration, formatTimestamp(in.GeneratedAt)
	s.Schema = "GSTR-1 offline tool JSON, version " + GSTR1Version + ": exp (table 6A) and cdnur (table 9B); the payoutd key is not part of it"
	s.Table6A = totals(int64(len(in.Docs)), taxable, igst)
	s.CreditNotes = totals(int64(len(in.Notes)), cnTaxable, cnIGST)
	s.Net = totals(int64(len(in.Docs)), taxable-cnTaxable, igst-cnIGST)
	s.GSTR3B31b = totals(0, in.GSTR3BTaxable, in.GSTR3BIGST)
	s.AgreesWith3B = s.Net.TaxableValuePaise == in.GSTR3BTaxable && s.Net.IGSTPaise == in.GSTR3BIGST
	s.Rule = "Exports are reported invoice by invoice in table 6A (section exp: WOPAY under a LUT, WPAY with IGST paid), " +
		"dates DD-MM-YYYY, at the taxable value of the invoice date's rate (CGST Rules r.34); credit notes to overseas recipients in table 9B (cdnur). " +
		"Table 6A less the credit notes is GSTR-3B table 3.1(b) of the period."
	return g
}

// portalDate is a date as the portal writes it, DD-MM-YYYY.
func portalDate(day string) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	return t.Format("02-01-2006")
}
