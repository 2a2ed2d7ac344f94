package mailer

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"errors"
	"io"
	"log"
	"math/big"
	"mime"
	"mime/quotedprintable"
	"net"
	netmail "net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// testFrom is the From address every test Config uses.
const testFrom = "noreply@agencyhub.test"

// smtpServer is a real SMTP server on 127.0.0.1 that records what it accepts.
type smtpServer struct {
	Host string
	Port int

	user, pass string // credentials it demands; none when user is empty
	implicit   bool   // TLS from the first byte (smtps)

	mu      sync.Mutex
	reject  func(rcpt string) bool
	arrived []receivedMail
}

// receivedMail is one accepted message: its envelope and its raw content.
type receivedMail struct {
	From     string
	To       []string
	Data     []byte
	TLS      bool
	AuthUser string
}

type serverOption func(*smtpServer, *smtp.Server)

// requireAuth makes the server demand AUTH PLAIN or LOGIN with these credentials.
func requireAuth(user, pass string) serverOption {
	return func(s *smtpServer, _ *smtp.Server) { s.user, s.pass = user, pass }
}

// offerSTARTTLS makes the server advertise STARTTLS with a self-signed certificate.
func offerSTARTTLS(cert tls.Certificate) serverOption {
	return func(_ *smtpServer, srv *smtp.Server) {
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
}

// implicitTLS makes the server speak TLS from the first byte, like port 465.
func implicitTLS(cert tls.Certificate) serverOption {
	return func(s *smtpServer, srv *smtp.Server) {
		offerSTARTTLS(cert)(s, srv)
		s.implicit = true
	}
}

// startSMTPServer listens on 127.0.0.1:0 and stops when the test ends.
func startSMTPServer(t *testing.T, opts ...serverOption) *smtpServer {
	t.Helper()
	s := &smtpServer{}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &smtpSession{server: s, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	srv.ErrorLog = log.New(io.Discard, "", 0)
	for _, opt := range opts {
		opt(s, srv)
	}
	var l net.Listener
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	if s.implicit {
		l = tls.NewListener(l, srv.TLSConfig)
	}
	addr := l.Addr().(*net.TCPAddr)
	s.Host, s.Port = addr.IP.String(), addr.Port
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(l)
	}()
	t.Cleanup(func() {
		_ = srv.Close()
		_ = l.Close() // Close misses the listener when Serve has not registered it yet
		<-done
	})
	return s
}

// config is a Config that reaches this server with its own credentials.
func (s *smtpServer) config() Config {
	cfg := Config{Host: s.Host, Port: s.Port, From: testFrom, Username: s.user, Password: s.pass, ImplicitTLS: s.implicit}
	cfg.Auth = defaultAuth(cfg.Username)
	return cfg
}

// rejectRecipients makes RCPT TO fail with 550 for every recipient the function picks.
func (s *smtpServer) rejectRecipients(pick func(rcpt string) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reject = pick
}

// received returns the messages accepted so far.
func (s *smtpServer) received() []receivedMail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]receivedMail(nil), s.arrived...)
}

type smtpSession struct {
	server   *smtpServer
	conn     *smtp.Conn
	authUser string
	from     string
	to       []string
}

func (ss *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain, "LOGIN"} }

func (ss *smtpSession) Auth(mech string) (sasl.Server, error) {
	check := func(username, password string) error {
		if ss.server.user == "" || username != ss.server.user || password != ss.server.pass {
			return smtp.ErrAuthFailed
		}
		ss.authUser = username
		return nil
	}
	switch mech {
	case sasl.Plain:
		return sasl.NewPlainServer(func(_, username, password string) error { return check(username, password) }), nil
	case "LOGIN":
		return &loginServer{check: check}, nil
	}
	return nil, smtp.ErrAuthUnknownMechanism
}

func (ss *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	if ss.server.user != "" && ss.authUser == "" {
		return smtp.ErrAuthRequired
	}
	ss.from = from
	return nil
}

func (ss *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.server.mu.Lock()
	reject := ss.server.reject
	ss.server.mu.Unlock()
	if reject != nil && reject(to) {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "mailbox unavailable"}
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *smtpSession) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, isTLS := ss.conn.TLSConnectionState()
	ss.server.mu.Lock()
	defer ss.server.mu.Unlock()
	ss.server.arrived = append(ss.server.arrived, receivedMail{
		From: ss.from, To: append([]string(nil), ss.to...), Data: data, TLS: isTLS, AuthUser: ss.authUser,
	})
	return nil
}

func (ss *smtpSession) Reset() { ss.from, ss.to = "", nil }

func (ss *smtpSession) Logout() error { return nil }

// loginServer is the server side of AUTH LOGIN, which go-sasl does not provide.
type loginServer struct {
	check    func(username, password string) error
	step     int
	username string
}

func (l *loginServer) Next(response []byte) ([]byte, bool, error) {
	switch l.step {
	case 0:
		l.step++
		if response != nil { // an initial response is the user name
			l.username = string(response)
			l.step++
			return []byte("Password:"), false, nil
		}
		return []byte("Username:"), false, nil
	case 1:
		l.username = string(response)
		l.step++
		return []byte("Password:"), false, nil
	case 2:
		l.step++
		return nil, true, l.check(l.username, string(response))
	}
	return nil, false, errors.New("unexpected LOGIN step")
}

// selfSignedCert is a certificate for 127.0.0.1 that no system trusts.
func selfSignedCert(t *testing.T) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatalf("generate key: %v", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatalf("create certificate: %v", err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// seenMail is a received message as a mail client shows it.
type seenMail struct {
	Header  netmail.Header
	Subject string
	Body    string
}

// readMail parses raw message data the way a recipient's mail client would: headers with
// encoded words decoded, body with its transfer encoding undone and line ends as "\n".
func readMail(t *testing.T, data []byte) seenMail {
	t.Helper()
	msg, err := netmail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("parse received message: %v\n%s", err, data)
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		t.Fatalf("decode Subject %q: %v", msg.Header.Get("Subject"), err)
	}
	mediaType, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mediaType != "text/plain" || !strings.EqualFold(params["charset"], "utf-8") {
		t.Fatalf("Content-Type = %q, want text/plain; charset=UTF-8", msg.Header.Get("Content-Type"))
	}
	var body io.Reader = msg.Body
	switch cte := strings.ToLower(msg.Header.Get("Content-Transfer-Encoding")); cte {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, body)
	case "", "7bit", "8bit":
	default:
		t.Fatalf("unexpected Content-Transfer-Encoding %q", cte)
	}
	text, err := io.ReadAll(body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return seenMail{Header: msg.Header, Subject: subject, Body: strings.ReplaceAll(string(text), "\r\n", "\n")}
}

// addresses returns the bare addresses of an address-list header, or nil when it is absent.
func addresses(t *testing.T, h netmail.Header, key string) []string {
	t.Helper()
	if h.Get(key) == "" {
		return nil
	}
	list, err := h.AddressList(key)
	if err != nil {
		t.Fatalf("parse %s header %q: %v", key, h.Get(key), err)
	}
	out := make([]string, len(list))
	for i, a := range list {
		out[i] = a.Address
	}
	return out
}
