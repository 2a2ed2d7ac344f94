package activities

// A real SMTP server for email.send tests, adapted from activities/mailer/testserver_test.go
// (test helpers of another package cannot be imported) with knobs for the failures
// email.send classifies.

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"log"
	"math/big"
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

// smtpServer is a real SMTP server on 127.0.0.1 that records what it accepts.
type smtpServer struct {
	Host string
	Port int

	user, pass string // credentials it demands; none when user is empty
	implicit   bool   // TLS from the first byte (smtps)

	mu      sync.Mutex
	reject  func(rcpt string) bool
	onData  dataOutcome
	arrived []receivedMail
}

// dataOutcome is how the server ends a message it has read.
type dataOutcome struct {
	reply     *smtp.SMTPError // answer the end of data with this error instead of 250
	drop      bool            // close the connection instead of answering
	dropAfter bool            // answer 250, then close the connection before the next command
}

// receivedMail is one accepted message: its envelope and its raw content.
type receivedMail struct {
	From string
	To   []string
	Data []byte
}

type serverOption func(*smtpServer, *smtp.Server)

// requireAuth makes the server demand AUTH PLAIN or LOGIN with these credentials.
func requireAuth(user, pass string) serverOption {
	return func(s *smtpServer, _ *smtp.Server) { s.user, s.pass = user, pass }
}

// implicitTLS makes the server speak TLS from the first byte, like port 465.
func implicitTLS(cert tls.Certificate) serverOption {
	return func(s *smtpServer, srv *smtp.Server) {
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
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

// rejectRecipients makes RCPT TO fail with 550 for every recipient the function picks.
func (s *smtpServer) rejectRecipients(pick func(rcpt string) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reject = pick
}

// endData sets how the server ends the next messages.
func (s *smtpServer) endData(o dataOutcome) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onData = o
}

// received returns the messages accepted so far.
func (s *smtpServer) received() []receivedMail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]receivedMail(nil), s.arrived...)
}

type smtpSession struct {
	server    *smtpServer
	conn      *smtp.Conn
	authUser  string
	from      string
	to        []string
	dropReset bool
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
	ss.server.mu.Lock()
	outcome := ss.server.onData
	if outcome.reply == nil && !outcome.drop {
		ss.server.arrived = append(ss.server.arrived, receivedMail{From: ss.from, To: append([]string(nil), ss.to...), Data: data})
	}
	ss.server.mu.Unlock()
	switch {
	case outcome.drop:
		_ = ss.conn.Conn().Close()
	case outcome.reply != nil:
		return outcome.reply
	case outcome.dropAfter:
		ss.dropReset = true // the server resets the session right after answering 250
	}
	return nil
}

func (ss *smtpSession) Reset() {
	if ss.dropReset {
		_ = ss.conn.Conn().Close()
	}
	ss.from, ss.to = "", nil
}

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
	Header netmail.Header
	Body   string
}

// readMail parses raw message data: headers, and the body with quoted-printable undone.
func readMail(t *testing.T, data []byte) seenMail {
	t.Helper()
	msg, err := netmail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("parse received message: %v\n%s", err, data)
	}
	var body io.Reader = msg.Body
	if strings.EqualFold(msg.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		body = quotedprintable.NewReader(body)
	}
	text, err := io.ReadAll(body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return seenMail{Header: msg.Header, Body: strings.ReplaceAll(string(text), "\r\n", "\n")}
}
