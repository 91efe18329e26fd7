package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// The /docs page is rendered once, at start, from the embedded OpenAPI
// document: these types are the part of it the template shows. The document
// is read as generic JSON (map[string]any), so the page shows whatever the
// document says without a second model of the API to keep in step.

type docsPage struct {
	Title, Version, Summary string
	Intro                   template.HTML
	BaseURL                 string
	Groups                  []docsGroup
	Webhooks                []docsOp
	Schemas                 []docsSchema
	Scopes                  []docsScope
	OpCount                 int
}

type docsGroup struct {
	Name, Anchor string
	Description  template.HTML
	Ops          []docsOp
}

type docsOp struct {
	Anchor, Method, Path, Summary, OperationID string
	Description                                template.HTML
	Auth                                       string   // how the caller authenticates
	Scopes                                     []string // any one of them suffices
	Params                                     []docsParam
	Body                                       *docsBody
	Responses                                  []docsResponse
	Curl                                       string
}

type docsParam struct {
	Name, In, Type string
	Required       bool
	Rules          []string
	Description    template.HTML
}

type docsBody struct {
	Media    string
	Required bool
	Fields   []docsField
	Example  string
}

type docsField struct {
	Name        string
	Depth       int
	Type        template.HTML
	Required    bool
	Rules       []string
	Description template.HTML
}

type docsResponse struct {
	Status, Class string // class: ok, redirect, client, server
	Description   template.HTML
	Media, Type   string
	TypeAnchor    string
	Codes         []string
	Headers       []string
	Example       string
}

type docsSchema struct {
	Name, Anchor string
	Description  template.HTML
	Fields       []docsField
	Variants     []string // oneOf members
	Type         template.HTML
}

type docsScope struct{ Name, Description string }

// docsModel walks the parsed document.
type docsModel struct{ root map[string]any }

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }
func arr(v any) []any          { a, _ := v.([]any); return a }
func str(v any) string         { s, _ := v.(string); return s }

// resolve follows a local $ref (#/components/...) once or more.
func (d docsModel) resolve(v map[string]any) map[string]any {
	for i := 0; i < 8 && v != nil; i++ {
		ref := str(v["$ref"])
		if ref == "" {
			return v
		}
		v = d.pointer(ref)
	}
	return v
}

func (d docsModel) pointer(ref string) map[string]any {
	cur := any(d.root)
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		cur = obj(cur)[part]
	}
	return obj(cur)
}

func refName(ref string) string { return ref[strings.LastIndexByte(ref, '/')+1:] }

func schemaAnchor(name string) string { return "schema-" + name }

var methodOrder = []string{"get", "post", "put", "patch", "delete"}

// buildDocsPage renders the model for a server whose public URL is baseURL
// (its -base-url), which the header and every curl example use; without
// one they use the document's default.
func buildDocsPage(doc []byte, baseURL string) (docsPage, error) {
	if baseURL != "" {
		doc = withBaseURL(doc, strings.TrimRight(baseURL, "/"))
	}
	var root map[string]any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber() // examples keep their exact decimals (250.00, not 250)
	if err := dec.Decode(&root); err != nil {
		return docsPage{}, fmt.Errorf("openapi.json: %w", err)
	}
	d := docsModel{root: root}
	info := obj(root["info"])
	page := docsPage{Title: str(info["title"]), Version: str(info["version"]), Summary: str(info["summary"]),
		Intro: markdown(str(info["description"]), 3)}
	if srv := obj(arr(root["servers"])[0]); srv != nil {
		page.BaseURL = str(obj(obj(obj(srv["variables"])["baseUrl"]))["default"])
	}
	if baseURL != "" {
		page.BaseURL = strings.TrimRight(baseURL, "/")
	}
	groups := map[string]*docsGroup{}
	for _, t := range arr(root["tags"]) {
		name := str(obj(t)["name"])
		g := &docsGroup{Name: name, Anchor: "tag-" + slug(name), Description: markdown(str(obj(t)["description"]), 4)}
		groups[name] = g
		page.Groups = append(page.Groups, docsGroup{Name: name})
	}
	paths := obj(root["paths"])
	keys, err := pathOrder(doc)
	if err != nil {
		return page, err
	}
	for _, p := range keys {
		item := obj(paths[p])
		for _, m := range methodOrder {
			o := obj(item[m])
			if o == nil {
				continue
			}
			op := d.operation(m, p, o, page.BaseURL)
			tag := str(arr(o["tags"])[0])
			g := groups[tag]
			if g == nil {
				return page, fmt.Errorf("operation %s has undeclared tag %q", op.OperationID, tag)
			}
			g.Ops = append(g.Ops, op)
			page.OpCount++
		}
	}
	for i := range page.Groups {
		page.Groups[i] = *groups[page.Groups[i].Name]
	}
	wh := obj(root["webhooks"])
	for _, name := range sortedKeys(wh) {
		page.Webhooks = append(page.Webhooks, d.operation("post", name, obj(obj(wh[name])["post"]), ""))
	}
	schemas := obj(obj(root["components"])["schemas"])
	for _, name := range sortedKeys(schemas) {
		page.Schemas = append(page.Schemas, d.schemaSection(name, obj(schemas[name])))
	}
	flows := obj(obj(obj(obj(obj(root["components"])["securitySchemes"])["sessionToken"])["flows"])["clientCredentials"])
	scopes := obj(flows["scopes"])
	for _, name := range sortedKeys(scopes) {
		page.Scopes = append(page.Scopes, docsScope{Name: name, Description: str(scopes[name])})
	}
	return page, nil
}

func (d docsModel) operation(method, path string, o map[string]any, base string) docsOp {
	op := docsOp{Method: strings.ToUpper(method), Path: path, Summary: str(o["summary"]), OperationID: str(o["operationId"]),
		Description: markdown(str(o["description"]), 5)}
	op.Anchor = "op-" + op.OperationID
	op.Auth, op.Scopes = d.auth(o)
	for _, raw := range arr(o["parameters"]) {
		p := d.resolve(obj(raw))
		sch := obj(p["schema"])
		op.Params = append(op.Params, docsParam{Name: str(p["name"]), In: str(p["in"]), Required: p["required"] == true,
			Type: string(d.typeOf(sch, false)), Rules: d.rules(sch), Description: markdown(str(p["description"]), 0)})
	}
	if rb := d.resolve(obj(o["requestBody"])); rb != nil {
		content := obj(rb["content"])
		for _, media := range sortedKeys(content) {
			mt := obj(content[media])
			body := &docsBody{Media: media, Required: rb["required"] == true, Example: pretty(mt["example"], media)}
			body.Fields = d.fields(d.resolve(obj(mt["schema"])), 0)
			op.Body = body
			break // the first media type (alphabetically) is shown; others are listed in the schema
		}
	}
	resps := obj(o["responses"])
	for _, status := range sortedKeys(resps) {
		op.Responses = append(op.Responses, d.response(status, d.resolve(obj(resps[status]))))
	}
	op.Curl = d.curl(op, o, base)
	return op
}

// auth describes an operation's security requirements: the schemes, and the
// scopes of which any one is enough.
func (d docsModel) auth(o map[string]any) (string, []string) {
	var schemes, scopes []string
	anonymous := false
	for _, req := range arr(o["security"]) {
		r := obj(req)
		if len(r) == 0 {
			anonymous = true
		}
		for name, sc := range r {
			label := map[string]string{"apiKey": "API key", "sessionToken": "session token", "verifySession": "browser session cookie"}[name]
			if !slices.Contains(schemes, label) {
				schemes = append(schemes, label)
			}
			for _, s := range arr(sc) {
				if !slices.Contains(scopes, str(s)) {
					scopes = append(scopes, str(s))
				}
			}
		}
	}
	switch {
	case len(schemes) == 0:
		return "None", nil
	case anonymous:
		return strings.Join(schemes, " or ") + " (optional)", scopes
	}
	return strings.Join(schemes, " or "), scopes
}

func (d docsModel) response(status string, r map[string]any) docsResponse {
	out := docsResponse{Status: status, Description: markdown(str(r["description"]), 0)}
	switch status[0] {
	case '2':
		out.Class = "ok"
	case '3':
		out.Class = "redirect"
	case '4':
		out.Class = "client"
	default:
		out.Class = "server"
	}
	for _, c := range arr(r["x-error-codes"]) {
		out.Codes = append(out.Codes, str(c))
	}
	out.Headers = sortedKeys(obj(r["headers"]))
	content := obj(r["content"])
	for _, media := range sortedKeys(content) {
		mt := obj(content[media])
		out.Media = media
		sch := obj(mt["schema"])
		if ref := str(sch["$ref"]); ref != "" {
			out.Type, out.TypeAnchor = refName(ref), schemaAnchor(refName(ref))
		} else {
			out.Type = stripTags(string(d.typeOf(sch, false)))
		}
		out.Example = pretty(mt["example"], media)
		break
	}
	return out
}

// curl is a copy-paste request built from the operation's examples.
func (d docsModel) curl(op docsOp, o map[string]any, base string) string {
	if base == "" {
		return ""
	}
	path, query := op.Path, url.Values{}
	for _, raw := range arr(o["parameters"]) {
		p := d.resolve(obj(raw))
		ex := fmt.Sprint(p["example"])
		if p["example"] == nil {
			continue
		}
		switch str(p["in"]) {
		case "path":
			path = strings.ReplaceAll(path, "{"+str(p["name"])+"}", ex)
		case "query":
			if p["required"] == true {
				query.Set(str(p["name"]), ex)
			}
		}
	}
	target := base + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	var b strings.Builder
	b.WriteString("curl")
	if op.Method != "GET" {
		b.WriteString(" -X " + op.Method)
	}
	b.WriteString(" '" + target + "'")
	if op.Auth != "None" && !strings.Contains(op.Auth, "cookie") {
		b.WriteString(" \\\n  -H \"Authorization: Bearer $PAYOUTD_KEY\"")
	}
	for _, raw := range arr(o["parameters"]) {
		if p := d.resolve(obj(raw)); str(p["name"]) == "Idempotency-Key" {
			b.WriteString(" \\\n  -H \"Idempotency-Key: $(uuidgen)\"")
		}
	}
	if op.Body != nil && op.Body.Example != "" {
		switch op.Body.Media {
		case "application/json":
			var compact bytes.Buffer
			if json.Compact(&compact, []byte(op.Body.Example)) == nil {
				b.WriteString(" \\\n  -H 'Content-Type: application/json' \\\n  -d '" + compact.String() + "'")
			}
		case "application/x-www-form-urlencoded":
			b.WriteString(" \\\n  --data '" + strings.TrimSpace(op.Body.Example) + "'")
		}
	}
	return b.String()
}

// pretty renders an example: JSON indented, a form as key=value&….
func pretty(v any, media string) string {
	if v == nil {
		return ""
	}
	if media == "application/x-www-form-urlencoded" {
		vals := url.Values{}
		for k, x := range obj(v) {
			vals.Set(k, fmt.Sprint(x))
		}
		return vals.Encode()
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return ""
	}
	return strings.TrimSpace(buf.String())
}

// pathOrder lists the document's paths in the order they are written, so
// the page follows the document (initiate before confirm) rather than the
// alphabet.
func pathOrder(doc []byte) ([]string, error) {
	var top struct {
		Paths json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(doc, &top); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(top.Paths))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

var slugRE = regexp.MustCompile(`[^a-z0-9]+`)

func slug(s string) string {
	return strings.Trim(slugRE.ReplaceAllString(strings.ToLower(s), "-"), "-")
}

var tagRE = regexp.MustCompile(`<[^>]*>`)

func stripTags(s string) string { return tagRE.ReplaceAllString(s, "") }

// docDefaultBase is the base URL the document's examples are written with.
const docDefaultBase = "http://localhost:8080"

// withBaseURL rewrites the document's example URLs (every JSON string that
// starts with its default base URL) to the server's own, so the page shows
// links the reader's server really answers.
func withBaseURL(doc []byte, base string) []byte {
	quoted, _ := json.Marshal(base) // a string always marshals
	return bytes.ReplaceAll(doc, []byte(`"`+docDefaultBase), quoted[:len(quoted)-1])
}
