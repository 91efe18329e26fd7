package openapi

import (
	"encoding/json"
	"fmt"
	"html/template"
	"regexp"
	"slices"
	"strings"
)

// typeOf names a schema's type for a table cell, linking named schemas.
// expand resolves a top-level $ref instead of linking it.
func (d docsModel) typeOf(s map[string]any, expand bool) template.HTML {
	if s == nil {
		return "any"
	}
	if ref := str(s["$ref"]); ref != "" && !expand {
		n := template.HTMLEscapeString(refName(ref))
		return template.HTML(`<a href="#` + schemaAnchor(n) + `">` + n + `</a>`)
	}
	s = d.resolve(s)
	for _, key := range []string{"anyOf", "oneOf"} {
		if alts := arr(s[key]); len(alts) > 0 && s["type"] == nil {
			parts := make([]string, 0, len(alts))
			for _, a := range alts {
				if t := string(d.typeOf(obj(a), false)); t != "" && !slices.Contains(parts, t) {
					parts = append(parts, t)
				}
			}
			return template.HTML(strings.Join(parts, " | "))
		}
	}
	var types []string
	switch t := s["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			types = append(types, str(x))
		}
	}
	if len(types) == 0 {
		if s["format"] != nil || s["pattern"] != nil {
			return "string"
		}
		return "any"
	}
	for i, t := range types {
		if t == "array" {
			types[i] = "array of " + string(d.typeOf(obj(s["items"]), false))
		} else {
			types[i] = template.HTMLEscapeString(t)
		}
	}
	return template.HTML(strings.Join(types, " | "))
}

// rules lists a schema's constraints in words, for the rules column.
func (d docsModel) rules(s map[string]any) []string {
	s = d.resolve(s)
	if s == nil {
		return nil
	}
	var out []string
	num := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	if v, ok := s["const"]; ok {
		out = append(out, "always "+num(v))
	}
	if e := arr(s["enum"]); len(e) > 0 {
		vals := make([]string, len(e))
		for i, v := range e {
			vals[i] = num(v)
		}
		out = append(out, "one of "+strings.Join(vals, ", "))
	}
	if e := arr(s["x-extensible-enum"]); len(e) > 0 {
		vals := make([]string, len(e))
		for i, v := range e {
			vals[i] = num(v)
		}
		out = append(out, "known values "+strings.Join(vals, ", ")+"; more may be added")
	}
	switch {
	case s["minLength"] != nil && s["maxLength"] != nil && num(s["minLength"]) == num(s["maxLength"]):
		out = append(out, "exactly "+chars(num(s["minLength"])))
	default:
		if v := s["minLength"]; v != nil {
			out = append(out, "at least "+chars(num(v)))
		}
		if v := s["maxLength"]; v != nil {
			out = append(out, "at most "+chars(num(v)))
		}
	}
	if v := s["pattern"]; v != nil {
		out = append(out, "pattern "+str(v))
	}
	if v := s["format"]; v != nil {
		out = append(out, "format "+str(v))
	}
	if v := s["exclusiveMinimum"]; v != nil {
		out = append(out, "> "+num(v))
	}
	if v := s["minimum"]; v != nil {
		out = append(out, "≥ "+num(v))
	}
	if v := s["maximum"]; v != nil {
		out = append(out, "≤ "+num(v))
	}
	if v, ok := s["default"]; ok {
		out = append(out, "default "+num(v))
	}
	if v := s["maxProperties"]; v != nil && num(v) == "0" {
		out = append(out, "empty object")
	}
	if s["additionalProperties"] == false && s["properties"] != nil {
		out = append(out, "no other fields")
	}
	return out
}

func chars(n string) string {
	if n == "1" {
		return "1 character"
	}
	return n + " characters"
}

// fields flattens an object schema into table rows: its properties, with
// nested inline objects indented below their field. Named schemas are
// linked, not expanded, so each table stays one screen tall.
func (d docsModel) fields(s map[string]any, depth int) []docsField {
	if s == nil || depth > 3 {
		return nil
	}
	props := obj(s["properties"])
	req := map[string]bool{}
	for _, r := range arr(s["required"]) {
		req[str(r)] = true
	}
	var out []docsField
	for _, name := range propertyOrder(s) {
		p := obj(props[name])
		desc := str(p["description"])
		if desc == "" {
			desc = str(d.resolve(p)["description"])
		}
		f := docsField{Name: name, Depth: depth, Type: d.typeOf(p, false), Required: req[name], Description: markdown(desc, 0)}
		f.Rules = d.rules(p)
		out = append(out, f)
		if p["$ref"] == nil && obj(p["properties"]) != nil {
			out = append(out, d.fields(p, depth+1)...)
		}
		if items := obj(p["items"]); items != nil && items["$ref"] == nil && obj(items["properties"]) != nil {
			out = append(out, d.fields(items, depth+1)...)
		}
	}
	return out
}

// propertyOrder is required properties first, each group alphabetical.
func propertyOrder(s map[string]any) []string {
	names := sortedKeys(obj(s["properties"]))
	req := map[string]bool{}
	for _, r := range arr(s["required"]) {
		req[str(r)] = true
	}
	slices.SortStableFunc(names, func(a, b string) int {
		switch {
		case req[a] == req[b]:
			return 0
		case req[a]:
			return -1
		}
		return 1
	})
	return names
}

func (d docsModel) schemaSection(name string, s map[string]any) docsSchema {
	out := docsSchema{Name: name, Anchor: schemaAnchor(name), Description: markdown(str(s["description"]), 0)}
	if alts := arr(s["oneOf"]); len(alts) > 0 {
		for _, a := range alts {
			out.Variants = append(out.Variants, refName(str(obj(a)["$ref"])))
		}
		return out
	}
	if obj(s["properties"]) != nil {
		out.Fields = d.fields(s, 0)
		return out
	}
	t := string(d.typeOf(s, true))
	if r := d.rules(s); len(r) > 0 {
		t += " (" + template.HTMLEscapeString(strings.Join(r, "; ")) + ")"
	}
	out.Type = template.HTML(t)
	return out
}

var (
	codeRE = regexp.MustCompile("`([^`]+)`")
	boldRE = regexp.MustCompile(`\*\*([^*]+)\*\*`)
)

// markdown renders the small subset the document's descriptions use:
// paragraphs, "- " lists, "## " headings (at level h), `code` and **bold**.
// The text is escaped first, so a description cannot inject markup.
func markdown(src string, h int) template.HTML {
	var b strings.Builder
	inline := func(s string) string {
		s = template.HTMLEscapeString(s)
		s = codeRE.ReplaceAllString(s, "<code>$1</code>")
		return boldRE.ReplaceAllString(s, "<strong>$1</strong>")
	}
	for _, block := range strings.Split(strings.TrimSpace(src), "\n\n") {
		lines := strings.Split(strings.TrimSpace(block), "\n")
		switch {
		case block == "":
		case strings.HasPrefix(lines[0], "## ") && h > 0:
			fmt.Fprintf(&b, "<h%d>%s</h%d>", h, inline(strings.TrimPrefix(lines[0], "## ")), h)
			if len(lines) > 1 {
				b.WriteString(string(markdown(strings.Join(lines[1:], "\n"), h)))
			}
		case strings.HasPrefix(lines[0], "- "):
			b.WriteString("<ul>")
			for _, l := range lines {
				if strings.HasPrefix(l, "- ") {
					b.WriteString("<li>" + inline(strings.TrimPrefix(l, "- ")) + "</li>")
				}
			}
			b.WriteString("</ul>")
		default:
			var para, list []string
			for _, l := range lines {
				if strings.HasPrefix(l, "- ") {
					list = append(list, l)
				} else if len(list) == 0 {
					para = append(para, l)
				}
			}
			b.WriteString("<p>" + inline(strings.Join(para, " ")) + "</p>")
			if len(list) > 0 {
				b.WriteString(string(markdown(strings.Join(list, "\n"), h)))
			}
		}
	}
	return template.HTML(b.String())
}
