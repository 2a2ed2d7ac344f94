// Package smtptest is a local SMTP server for tests (go-smtp on 127.0.0.1) that records the
// sessions and messages it sees: it can demand AUTH PLAIN or LOGIN, offer STARTTLS or speak
// implicit TLS with a self-signed certificate, and answer MAIL, RCPT or DATA with an error
// or a dropped connection instead of accepting. It is a test helper, so it sits beside the
// mailer whose client it serves.
package smtptest

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

// Server is a real SMTP server on 127.0.0.1 that records what it sees. Its exported fields
// are set by Start and only read afterwards.
type Server struct {
	Host string
	Port int

	// Username and Password are the credentials the server demands (RequireAuth); it demands
	// none when Username is empty.
	Username, Password string
	// ImplicitTLS is whether the server speaks TLS from the first byte, like port 465.
	ImplicitTLS bool

	tlsConfig *tls.Config // offered for STARTTLS, or wrapping the listener with ImplicitTLS

	mu       sync.Mutex
	replies  map[Stage]func(arg string) Reply
	sessions []Session
	messages []Message
}

// Session is what one client connection did: whom it signed in as, and whether it began a
// message (MAIL FROM), which a server that demands AUTH refuses unless the client signed in.
type Session struct {
	AuthUser string
	MailFrom bool
}

// Message is one accepted message: its envelope, its raw content, whether it came over TLS
// and whom the client had signed in as.
type Message struct {
	From     string
	To       []string
	Data     []byte
	TLS      bool
	AuthUser string
}

// Stage is a step of the mail dialogue whose answer ReplyAt can change.
type Stage string

// The stages of the dialogue: MAIL FROM, each RCPT TO, and the end of DATA.
const (
	StageMail Stage = "MAIL"
	StageRcpt Stage = "RCPT"
	StageData Stage = "DATA"
)

// Reply is how the server answers a command of a stage; the zero Reply accepts it. A message
// is recorded only when DATA is accepted (without Err and Drop).
type Reply struct {
	// Err is the answer instead of 250, such as a 451 or a 554.
	Err *smtp.SMTPError
	// Drop closes the connection instead of answering.
	Drop bool
	// DropAfter accepts, then closes the connection at the session's next step: right after
	// the 250 that ends DATA, or when the command after MAIL or RCPT reaches the session.
	DropAfter bool
}

// Option configures a Server before Start listens.
type Option func(*Server)

// RequireAuth makes the server demand AUTH PLAIN or LOGIN with these credentials before MAIL.
func RequireAuth(user, pass string) Option {
	return func(s *Server) { s.Username, s.Password = user, pass }
}

// STARTTLS makes the server advertise STARTTLS with this certificate.
func STARTTLS(cert tls.Certificate) Option {
	return func(s *Server) {
		s.tlsConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
}

// ImplicitTLS makes the server speak TLS with this certificate from the first byte, like
// port 465.
func ImplicitTLS(cert tls.Certificate) Option {
	return func(s *Server) {
		STARTTLS(cert)(s)
		s.ImplicitTLS = true
	}
}

// Start listens on 127.0.0.1:0 and stops when the test ends.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := &Server{}
	for _, opt := range opts {
		opt(s)
	}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.sessions = append(s.sessions, Session{})
		return &session{server: s, conn: c, index: len(s.sessions) - 1}, nil
	}))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	srv.ErrorLog = log.New(io.Discard, "", 0)
	srv.TLSConfig = s.tlsConfig
	var l net.Listener
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	if s.ImplicitTLS {
		l = tls.NewListener(l, s.tlsConfig)
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

// ReplyAt makes the server answer every later command of the stage with r, replacing what
// an earlier ReplyAt or RejectRecipients set for it.
func (s *Server) ReplyAt(stage Stage, r Reply) {
	s.setReply(stage, func(string) Reply { return r })
}

// RejectRecipients makes RCPT TO fail with 550 5.1.1 for every recipient pick chooses and
// accepts the others, replacing what an earlier ReplyAt set for StageRcpt.
func (s *Server) RejectRecipients(pick func(rcpt string) bool) {
	s.setReply(StageRcpt, func(rcpt string) Reply {
		if pick(rcpt) {
			return Reply{Err: &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "mailbox unavailable"}}
		}
		return Reply{}
	})
}

func (s *Server) setReply(stage Stage, reply func(arg string) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.replies == nil {
		s.replies = map[Stage]func(string) Reply{}
	}
	s.replies[stage] = reply
}

// reply is how the server answers the stage's command with this argument.
func (s *Server) reply(stage Stage, arg string) Reply {
	s.mu.Lock()
	reply := s.replies[stage]
	s.mu.Unlock()
	if reply == nil {
		return Reply{}
	}
	return reply(arg)
}

// Sessions returns the client connections so far, in the order they greeted the server.
func (s *Server) Sessions() []Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Session(nil), s.sessions...)
}

// Messages returns the messages accepted so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.messages...)
}

// errDropped answers a command on a connection the server has closed; nobody reads it.
var errDropped = errors.New("connection dropped")

type session struct {
	server    *Server
	conn      *smtp.Conn
	index     int // into server.sessions
	authUser  string
	from      string
	to        []string
	dropLater bool // a DropAfter reply awaits the next step
}

func (ss *session) update(f func(*Session)) {
	ss.server.mu.Lock()
	defer ss.server.mu.Unlock()
	f(&ss.server.sessions[ss.index])
}

// answer applies a Reply: it closes the connection for Drop, remembers DropAfter, and
// returns the error to answer with, if any.
func (ss *session) answer(r Reply) error {
	switch {
	case r.Drop:
		_ = ss.conn.Conn().Close()
	case r.Err != nil:
		return r.Err
	case r.DropAfter:
		ss.dropLater = true
	}
	return nil
}

// dropped closes the connection when a DropAfter reply awaits this step, and reports it.
func (ss *session) dropped() bool {
	if ss.dropLater {
		_ = ss.conn.Conn().Close()
	}
	return ss.dropLater
}

func (ss *session) AuthMechanisms() []string { return []string{sasl.Plain, "LOGIN"} }

func (ss *session) Auth(mech string) (sasl.Server, error) {
	check := func(username, password string) error {
		if ss.server.Username == "" || username != ss.server.Username || password != ss.server.Password {
			return smtp.ErrAuthFailed
		}
		ss.authUser = username
		ss.update(func(s *Session) { s.AuthUser = username })
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

// Mail is the only command that checks the sign-in: go-smtp refuses RCPT and DATA until
// MAIL is accepted.
func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if ss.dropped() {
		return errDropped
	}
	ss.update(func(s *Session) { s.MailFrom = true })
	if ss.server.Username != "" && ss.authUser == "" {
		return smtp.ErrAuthRequired
	}
	if err := ss.answer(ss.server.reply(StageMail, from)); err != nil {
		return err
	}
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if ss.dropped() {
		return errDropped
	}
	if err := ss.answer(ss.server.reply(StageRcpt, to)); err != nil {
		return err
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	if ss.dropped() {
		return errDropped
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	reply := ss.server.reply(StageData, "")
	if reply.Err == nil && !reply.Drop {
		_, isTLS := ss.conn.TLSConnectionState()
		ss.server.mu.Lock()
		ss.server.messages = append(ss.server.messages, Message{
			From: ss.from, To: append([]string(nil), ss.to...), Data: data, TLS: isTLS, AuthUser: ss.authUser,
		})
		ss.server.mu.Unlock()
	}
	return ss.answer(reply)
}

// Reset follows every DATA, right after its reply is written.
func (ss *session) Reset() {
	ss.dropped()
	ss.from, ss.to = "", nil
}

func (ss *session) Logout() error { return nil }

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

// SelfSignedCert is a certificate for 127.0.0.1 that no system trusts.
func SelfSignedCert(t testing.TB) tls.Certificate {
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

// SeenMail is a received message as a mail client shows it.
type SeenMail struct {
	Header  netmail.Header
	Subject string
	Body    string
}

// ReadMail parses raw message data the way a recipient's mail client would: the Subject with
// its encoded words decoded, the body with its transfer encoding (quoted-printable, base64,
// or none) undone and line ends as "\n". Data it cannot read fails the test.
func ReadMail(t testing.TB, data []byte) SeenMail {
	t.Helper()
	msg, err := netmail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("parse received message: %v\n%s", err, data)
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		t.Fatalf("decode Subject %q: %v", msg.Header.Get("Subject"), err)
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
	return SeenMail{Header: msg.Header, Subject: subject, Body: strings.ReplaceAll(string(text), "\r\n", "\n")}
}
