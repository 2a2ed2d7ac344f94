package sitechat

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// Visitor tokens are HS256 JWTs (golang-jwt) for their own audience, signed with the site
// chat's derived key, so neither an access token nor a token of another purpose verifies
// as one.
const (
	visitorTokenIssuer   = "agencyhub"
	visitorTokenAudience = "agencyhub-site-chat-visitor"
)

type visitorClaims struct {
	VisitSessionID string `json:"sid"`
	ChatWidgetID   string `json:"wid"`
	jwt.RegisteredClaims
}

// VisitorAccess is what a verified visitor token grants: one visitor, in one visit
// session, through one active widget (whose CompanyID and ProjectID scope everything).
type VisitorAccess struct {
	Visitor *Visitor
	Session *VisitSession
	Widget  *Widget
}

// errVisitorToken is the one answer to a missing, malformed, forged, expired or foreign
// visitor token, so a caller learns nothing from trying.
var errVisitorToken = models.Unauthenticated("invalid_visitor_token", "X-Visitor-Token")

func (s *Service) signVisitorToken(v *VisitSession) (string, time.Time, error) {
	now := s.now()
	expires := now.Add(s.Settings.VisitorTokenTTL)
	claims := visitorClaims{
		VisitSessionID: v.ID.String(),
		ChatWidgetID:   v.ChatWidgetID.String(),
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer: visitorTokenIssuer, Subject: v.VisitorID.String(), Audience: jwt.ClaimStrings{visitorTokenAudience},
			IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(expires),
		},
	}
	signed, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.tokenKey)
	if err != nil {
		return "", time.Time{}, models.Internal("sign visitor token: %w", err)
	}
	return signed, expires, nil
}

// VerifyVisitorToken checks a visitor token (signature, algorithm, audience, lifetime) and
// answers the visitor, visit session and widget it binds, read afresh in one query; the
// widget must still be active. Errors: unauthenticated (X-Visitor-Token) for any bad token.
func (s *Service) VerifyVisitorToken(ctx context.Context, raw string) (*VisitorAccess, error) {
	ids, err := s.readVisitorToken(raw)
	if err != nil {
		return nil, err
	}
	db := s.DB.WithContext(ctx)
	var row tokenRows
	err = db.InnerJoins("Widget", s.DB.Where(&Widget{Status: WidgetActive})).InnerJoins("Visitor").
		Where("site_visit_sessions.id = ? AND site_visit_sessions.visitor_id = ? AND site_visit_sessions.chat_widget_id = ?",
			ids.session, ids.visitor, ids.widget).
		Take(&row).Error
	if models.IsNotFound(err) {
		return nil, errVisitorToken
	}
	if err != nil {
		return nil, models.Internal("read visitor token's rows: %w", err)
	}
	return &VisitorAccess{Visitor: &row.Visitor, Session: &row.VisitSession, Widget: &row.Widget}, nil
}

// tokenRows are the rows a visitor token binds: its visit session, joined to its widget
// and its visitor.
type tokenRows struct {
	VisitSession
	Widget  Widget  `gorm:"foreignKey:ChatWidgetID"`
	Visitor Visitor `gorm:"foreignKey:VisitorID"`
}

// CheckVisitorTokens answers, for each token, nil when VerifyVisitorToken would accept it
// now and its error otherwise, in three queries however many tokens there are: it is how
// thousands of open sockets are checked again. Its caller bounds how many at once.
func (s *Service) CheckVisitorTokens(ctx context.Context, raws []string) []error {
	errs := make([]error, len(raws))
	bound := make([]visitorTokenIDs, len(raws))
	sessions, widgets, visitors := map[uuid.UUID]bool{}, map[uuid.UUID]bool{}, map[uuid.UUID]bool{}
	for i, raw := range raws {
		ids, err := s.readVisitorToken(raw)
		if err != nil {
			errs[i] = err
			continue
		}
		bound[i] = ids
		sessions[ids.session], widgets[ids.widget], visitors[ids.visitor] = false, false, false
	}
	if len(sessions) == 0 {
		return errs
	}
	db := s.DB.WithContext(ctx)
	var rows []VisitSession
	err := db.Select("id", "visitor_id", "chat_widget_id").Where("id IN ?", slices.Collect(maps.Keys(sessions))).Find(&rows).Error
	sessionOf := map[uuid.UUID]visitorTokenIDs{}
	for _, r := range rows {
		sessionOf[r.ID] = visitorTokenIDs{visitor: r.VisitorID, session: r.ID, widget: r.ChatWidgetID}
	}
	if err == nil {
		err = existing(db.Model(&Widget{}).Where("status = ?", WidgetActive), widgets)
	}
	if err == nil {
		err = existing(db.Model(&Visitor{}), visitors)
	}
	for i, ids := range bound {
		switch {
		case errs[i] != nil:
		case err != nil:
			errs[i] = models.Internal("check visitor tokens: %w", err)
		case sessionOf[ids.session] != ids || !widgets[ids.widget] || !visitors[ids.visitor]:
			errs[i] = errVisitorToken
		}
	}
	return errs
}

// existing sets to true the ids of set that query finds.
func existing(query *gorm.DB, set map[uuid.UUID]bool) error {
	var found []uuid.UUID
	if err := query.Where("id IN ?", slices.Collect(maps.Keys(set))).Pluck("id", &found).Error; err != nil {
		return err
	}
	for _, id := range found {
		set[id] = true
	}
	return nil
}

// visitorTokenIDs are what a visitor token binds.
type visitorTokenIDs struct{ visitor, session, widget uuid.UUID }

// readVisitorToken checks a token's signature, algorithm, audience and lifetime, and
// answers the ids it binds. Errors: unauthenticated (X-Visitor-Token).
func (s *Service) readVisitorToken(raw string) (visitorTokenIDs, error) {
	if raw == "" {
		return visitorTokenIDs{}, errVisitorToken
	}
	var claims visitorClaims
	_, err := jwt.ParseWithClaims(raw, &claims, func(*jwt.Token) (any, error) { return s.tokenKey, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithAudience(visitorTokenAudience),
		jwt.WithIssuer(visitorTokenIssuer),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(s.Now),
	)
	if err != nil {
		return visitorTokenIDs{}, errVisitorToken
	}
	visitorID, err1 := uuid.Parse(claims.Subject)
	sessionID, err2 := uuid.Parse(claims.VisitSessionID)
	widgetID, err3 := uuid.Parse(claims.ChatWidgetID)
	if err1 != nil || err2 != nil || err3 != nil {
		return visitorTokenIDs{}, errVisitorToken
	}
	return visitorTokenIDs{visitor: visitorID, session: sessionID, widget: widgetID}, nil
}

// Binds reports whether the ids a visitor's request names (uuid.Nil or "" for absent) are
// the token's own; a request naming anything else is refused as a bad token.
// Errors: unauthenticated (X-Visitor-Token).
func (v *VisitorAccess) Binds(publicKey string, visitorID, visitSessionID uuid.UUID) error {
	if (publicKey != "" && publicKey != v.Widget.PublicKey) ||
		(visitorID != uuid.Nil && visitorID != v.Visitor.ID) ||
		(visitSessionID != uuid.Nil && visitSessionID != v.Session.ID) {
		return errVisitorToken
	}
	return nil
}

// attachmentToken is the credential of an attachment's download link:
// "<expiry unix seconds>.<HMAC-SHA256 of purpose, id and expiry>", base64url.
func (s *Service) attachmentToken(id uuid.UUID, expires time.Time) string {
	exp := strconv.FormatInt(expires.Unix(), 10)
	return exp + "." + s.mac("attachment|"+id.String()+"|"+exp)
}

// attachmentTokenSyntax is what every attachment download token looks like.
var attachmentTokenSyntax = regexp.MustCompile(`^[0-9]{1,19}\.[A-Za-z0-9_-]{43}$`)

// IsAttachmentToken reports whether token has the form of a download token (whatever it
// grants): a download route answers anything else as an unknown attachment.
func IsAttachmentToken(token string) bool { return attachmentTokenSyntax.MatchString(token) }

// checkAttachmentToken reports whether token is a download token of attachment id that
// has not expired.
func (s *Service) checkAttachmentToken(id uuid.UUID, token string) bool {
	exp, mac, ok := strings.Cut(token, ".")
	if !ok {
		return false
	}
	unix, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || !s.now().Before(time.Unix(unix, 0)) {
		return false
	}
	return hmac.Equal([]byte(mac), []byte(s.mac("attachment|"+id.String()+"|"+exp)))
}

// mac signs a message with the site chat key; every message starts with its purpose.
func (s *Service) mac(message string) string {
	h := hmac.New(sha256.New, s.tokenKey)
	h.Write([]byte(message))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}
