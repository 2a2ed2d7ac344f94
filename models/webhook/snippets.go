package webhook

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// SecretEnv is the environment variable the snippets read the endpoint's secret from: the
// secret is shown once, so snippets never contain it.
const SecretEnv = "WEBHOOK_SECRET"

// defaultBasicUser is the user name snippets send when the endpoint takes any.
const defaultBasicUser = "webhook"

// Snippet is one ready-to-paste example of a sender.
type Snippet struct {
	Language string `json:"language"`
	Label    string `json:"label"`
	Code     string `json:"code"`
}

// Snippets are examples that send body (a JSON text) to url as the auth type requires, in
// curl (bash with openssl), JavaScript (Node.js fetch), Python (requests) and Go; for
// hmac_standard they sign it as Standard Webhooks does.
func Snippets(authType, basicUsername, url, body string) []Snippet {
	user := basicUsername
	if user == "" {
		user = defaultBasicUser
	}
	sn := snippet{auth: authType, user: user, url: url, body: body}
	return []Snippet{
		{Language: "curl", Label: sn.curlLabel(), Code: sn.curl()},
		{Language: "javascript", Label: "JavaScript (Node.js 18+, fetch)", Code: sn.javascript()},
		{Language: "python", Label: "Python 3.9+ (requests)", Code: sn.python()},
		{Language: "go", Label: "Go (net/http)", Code: sn.golang()},
	}
}

// SampleBody is the JSON text snippets send for a sample payload.
func SampleBody(sample map[string]any) string {
	b, err := json.Marshal(sample)
	if err != nil || sample == nil {
		return "{}"
	}
	return string(b)
}

type snippet struct{ auth, user, url, body string }

func (s snippet) secretNote(comment string) string {
	if s.auth == AuthNone {
		return ""
	}
	return comment + " " + SecretEnv + " holds the endpoint's secret (shown on create and on rotate-secret).\n"
}

// jsString is s as a JavaScript string literal (a JSON string is one).
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// shellQuote quotes s for bash as one word.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (s snippet) curlLabel() string {
	if s.auth == AuthHMACStandard {
		return "curl (bash, openssl)"
	}
	return "curl (bash)"
}

func (s snippet) curl() string {
	var b strings.Builder
	if s.auth == AuthHMACStandard {
		b.WriteString("# Needs bash, curl and openssl.\n")
	} else {
		b.WriteString("# Needs bash and curl.\n")
	}
	b.WriteString(s.secretNote("#"))
	fmt.Fprintf(&b, "BODY=%s\n", shellQuote(s.body))
	headers := []string{`'Content-Type: application/json'`}
	switch s.auth {
	case AuthHMACStandard:
		b.WriteString(`MSG_ID="msg_$(openssl rand -hex 16)"` + "\n")
		b.WriteString(`TIMESTAMP="$(date +%s)"` + "\n")
		b.WriteString(`KEY_HEX="$(printf '%s' "${` + SecretEnv + `#whsec_}" | openssl base64 -d -A | od -An -v -tx1 | tr -d ' \n')"` + "\n")
		b.WriteString(`SIGNATURE="$(printf '%s' "$MSG_ID.$TIMESTAMP.$BODY" | ` +
			`openssl dgst -sha256 -mac HMAC -macopt "hexkey:$KEY_HEX" -binary | openssl base64 -A)"` + "\n")
		headers = append(headers, `"webhook-id: $MSG_ID"`, `"webhook-timestamp: $TIMESTAMP"`, `"webhook-signature: v1,$SIGNATURE"`)
	default:
		b.WriteString("# A retried delivery must repeat its Idempotency-Key: it then starts no second run.\n")
		b.WriteString(`DELIVERY_ID="delivery-$(date +%s)-$RANDOM"` + "\n")
		headers = append(headers, `"Idempotency-Key: $DELIVERY_ID"`)
		if s.auth == AuthSharedSecret {
			headers = append(headers, `"X-Webhook-Secret: $`+SecretEnv+`"`)
		}
	}
	fmt.Fprintf(&b, "curl -sS -w '\\nHTTP %%{http_code}\\n' -X POST %s \\\n", shellQuote(s.url))
	for _, h := range headers {
		fmt.Fprintf(&b, "  -H %s \\\n", h)
	}
	if s.auth == AuthBasic {
		fmt.Fprintf(&b, "  -u %s\"$%s\" \\\n", shellQuote(s.user+":"), SecretEnv)
	}
	b.WriteString(`  --data-binary "$BODY"` + "\n")
	return b.String()
}

func (s snippet) javascript() string {
	var b strings.Builder
	b.WriteString("// Node.js 18+.\n")
	b.WriteString(s.secretNote("//"))
	b.WriteString("const crypto = require(\"node:crypto\");\n\n")
	fmt.Fprintf(&b, "const url = %s;\n", jsString(s.url))
	fmt.Fprintf(&b, "const body = JSON.stringify(%s);\n", s.body)
	headers := []string{`"Content-Type": "application/json"`}
	switch s.auth {
	case AuthHMACStandard:
		b.WriteString("const id = `msg_${crypto.randomUUID()}`;\n")
		b.WriteString("const timestamp = Math.floor(Date.now() / 1000).toString();\n")
		b.WriteString(`const key = Buffer.from(process.env.` + SecretEnv + `.replace(/^whsec_/, ""), "base64");` + "\n")
		b.WriteString("const signature = crypto.createHmac(\"sha256\", key).update(`${id}.${timestamp}.${body}`).digest(\"base64\");\n")
		headers = append(headers, `"webhook-id": id`, `"webhook-timestamp": timestamp`, "\"webhook-signature\": `v1,${signature}`")
	default:
		b.WriteString("// A retried delivery must repeat its Idempotency-Key: it then starts no second run.\n")
		b.WriteString("const deliveryId = crypto.randomUUID();\n")
		headers = append(headers, `"Idempotency-Key": deliveryId`)
		switch s.auth {
		case AuthSharedSecret:
			headers = append(headers, `"X-Webhook-Secret": process.env.`+SecretEnv)
		case AuthBasic:
			headers = append(
				headers,
				fmt.Sprintf("Authorization: \"Basic \" + Buffer.from(%s + process.env.%s).toString(\"base64\")", jsString(s.user+":"), SecretEnv),
			)
		}
	}
	b.WriteString("\nfetch(url, {\n  method: \"POST\",\n  headers: {\n")
	for _, h := range headers {
		fmt.Fprintf(&b, "    %s,\n", h)
	}
	b.WriteString("  },\n  body,\n}).then(async (res) => console.log(res.status, await res.text()));\n")
	return b.String()
}

func (s snippet) python() string {
	var b strings.Builder
	b.WriteString("# Python 3.9+ with requests (pip install requests).\n")
	b.WriteString(s.secretNote("#"))
	imports := []string{"uuid"}
	if s.auth != AuthNone {
		imports = append(imports, "os")
	}
	if s.auth == AuthHMACStandard {
		imports = []string{"base64", "hashlib", "hmac", "os", "time", "uuid"}
	}
	slices.Sort(imports)
	for _, i := range imports {
		fmt.Fprintf(&b, "import %s\n", i)
	}
	b.WriteString("\nimport requests\n\n")
	fmt.Fprintf(&b, "url = %s\n", strconv.Quote(s.url))
	fmt.Fprintf(&b, "body = %s\n", strconv.Quote(s.body))
	headers := []string{`"Content-Type": "application/json"`}
	auth := ""
	switch s.auth {
	case AuthHMACStandard:
		b.WriteString("msg_id = f\"msg_{uuid.uuid4().hex}\"\n")
		b.WriteString("timestamp = str(int(time.time()))\n")
		b.WriteString(`key = base64.b64decode(os.environ["` + SecretEnv + `"].removeprefix("whsec_"))` + "\n")
		b.WriteString("signature = base64.b64encode(hmac.new(key, f\"{msg_id}.{timestamp}.{body}\".encode(), " +
			"hashlib.sha256).digest()).decode()\n")
		headers = append(headers, `"webhook-id": msg_id`, `"webhook-timestamp": timestamp`, `"webhook-signature": f"v1,{signature}"`)
	default:
		b.WriteString("# A retried delivery must repeat its Idempotency-Key: it then starts no second run.\n")
		b.WriteString("delivery_id = uuid.uuid4().hex\n")
		headers = append(headers, `"Idempotency-Key": delivery_id`)
		switch s.auth {
		case AuthSharedSecret:
			headers = append(headers, `"X-Webhook-Secret": os.environ["`+SecretEnv+`"]`)
		case AuthBasic:
			auth = fmt.Sprintf(", auth=(%s, os.environ[%q])", strconv.Quote(s.user), SecretEnv)
		}
	}
	b.WriteString("\nresponse = requests.post(url, data=body.encode(), headers={\n")
	for _, h := range headers {
		fmt.Fprintf(&b, "    %s,\n", h)
	}
	fmt.Fprintf(&b, "}%s, timeout=30)\n", auth)
	b.WriteString("print(response.status_code, response.text)\n")
	return b.String()
}

func (s snippet) golang() string {
	imports := []string{"fmt", "io", "log", "net/http", "strings", "time"}
	if s.auth != AuthNone {
		imports = append(imports, "os")
	}
	if s.auth == AuthHMACStandard {
		imports = append(imports, "crypto/hmac", "crypto/sha256", "encoding/base64", "strconv")
	}
	slices.Sort(imports)
	var b strings.Builder
	b.WriteString("// Go 1.21+: go run main.go\n")
	b.WriteString(s.secretNote("//"))
	b.WriteString("package main\n\nimport (\n")
	for _, i := range imports {
		fmt.Fprintf(&b, "\t%q\n", i)
	}
	b.WriteString(")\n\nfunc main() {\n")
	fmt.Fprintf(&b, "\turl := %s\n", strconv.Quote(s.url))
	fmt.Fprintf(&b, "\tbody := %s\n", strconv.Quote(s.body))
	headers := [][2]string{{`"Content-Type"`, `"application/json"`}}
	switch s.auth {
	case AuthHMACStandard:
		b.WriteString("\tkey, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(os.Getenv(\"" + SecretEnv + "\"), \"whsec_\"))\n")
		b.WriteString("\tif err != nil {\n\t\tlog.Fatal(\"" + SecretEnv + ": \", err)\n\t}\n")
		b.WriteString("\tid := fmt.Sprintf(\"msg_%d\", time.Now().UnixNano())\n")
		b.WriteString("\ttimestamp := strconv.FormatInt(time.Now().Unix(), 10)\n")
		b.WriteString("\tmac := hmac.New(sha256.New, key)\n")
		b.WriteString("\tmac.Write([]byte(id + \".\" + timestamp + \".\" + body))\n")
		b.WriteString("\tsignature := \"v1,\" + base64.StdEncoding.EncodeToString(mac.Sum(nil))\n\n")
		headers = append(
			headers,
			[2]string{`"webhook-id"`, "id"},
			[2]string{`"webhook-timestamp"`, "timestamp"},
			[2]string{`"webhook-signature"`, "signature"},
		)
	default:
		b.WriteString("\t// A retried delivery must repeat its Idempotency-Key: it then starts no second run.\n")
		b.WriteString("\tdeliveryID := fmt.Sprintf(\"delivery-%d\", time.Now().UnixNano())\n\n")
		headers = append(headers, [2]string{`"Idempotency-Key"`, "deliveryID"})
		if s.auth == AuthSharedSecret {
			headers = append(headers, [2]string{`"X-Webhook-Secret"`, `os.Getenv("` + SecretEnv + `")`})
		}
	}
	b.WriteString("\treq, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))\n")
	b.WriteString("\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n")
	for _, h := range headers {
		fmt.Fprintf(&b, "\treq.Header.Set(%s, %s)\n", h[0], h[1])
	}
	if s.auth == AuthBasic {
		fmt.Fprintf(&b, "\treq.SetBasicAuth(%s, os.Getenv(%q))\n", strconv.Quote(s.user), SecretEnv)
	}
	b.WriteString("\tresp, err := http.DefaultClient.Do(req)\n")
	b.WriteString("\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n")
	b.WriteString("\tdefer resp.Body.Close()\n")
	b.WriteString("\tanswer, _ := io.ReadAll(resp.Body)\n")
	b.WriteString("\tfmt.Println(resp.Status, string(answer))\n}\n")
	return b.String()
}
