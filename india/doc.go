// Package india holds the Indian tax and compliance rules payoutd needs, as
// plain functions over embedded data: GSTIN and PAN validation, RBI purpose
// codes, ISO 3166-1 country codes, financial years and GST months bucketed in
// IST, the new-regime income-tax tables per financial year, the indicative
// s.44ADA liability, and amounts in words for documents.
//
// Every tax figure carries its source in a comment. The sources are the ones
// collected for this package (tax-practitioner pages and public code, not the
// gazette); figures those sources leave unconfirmed are marked so here too.
//
// Money is int64 paise (INR minor units) throughout; nothing here uses floats.
package india
