package sitechat

import (
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/platform/filestore"
)

// Recording is a recording of a call, kept in the blob store under StorageKey.
type Recording struct {
	ID             uuid.UUID `gorm:"primaryKey"`
	CompanyID      uuid.UUID
	CallSessionID  uuid.UUID
	filestore.Meta `gorm:"embedded"`
	CreatedBy      uuid.UUID
	CreatedAt      time.Time
}

func (Recording) TableName() string { return "site_chat_recordings" }

// RecordingLimits are what a call recording may be: at most 200 MiB of the containers a
// browser's MediaRecorder writes (WebM, Ogg, MP4) or MP3/WAV, by the sniffed type.
var RecordingLimits = filestore.Limits{
	MaxBytes:     200 << 20,
	AllowedTypes: []string{"video/webm", "audio/webm", "application/ogg", "audio/ogg", "video/mp4", "audio/mpeg", "audio/wave"},
}

// Recordable reports whether a call may have recordings: recording enabled, both of the
// visitor's consents stored, and the call answered.
func (c *CallSession) Recordable() bool {
	return c.RecordingEnabled && c.PrivacyConsentAcceptedAt != nil && c.RecordingConsentAcceptedAt != nil &&
		(c.Status == CallAccepted || c.Status == CallEnded || c.Status == CallFailed)
}

// AddRecording stores body in the blob store as a recording of the call, uploaded by an
// operator; a record that fails removes the file again. Errors: conflict (the call is not
// recordable), invalid (file: too large, of a type RecordingLimits refuses; its name).
func (s *Service) AddRecording(ctx context.Context, call *CallSession, userID uuid.UUID, name string, body io.Reader) (*Recording, error) {
	if !call.Recordable() {
		return nil, models.Conflict("call_not_recordable", "call_session_id")
	}
	name, ok := filestore.BaseName(name)
	if !ok {
		return nil, models.Invalid("invalid_site_chat_file_name", "file")
	}
	r := Recording{
		ID:            models.NewID(),
		CompanyID:     call.CompanyID,
		CallSessionID: call.ID,
		Meta:          filestore.Meta{FileName: name},
		CreatedBy:     userID,
		CreatedAt:     s.now(),
	}
	r.StorageKey = "site-chat/" + call.CompanyID.String() + "/calls/" + call.ID.String() + "/" + r.ID.String()
	obj, err := s.Files.Put(ctx, r.StorageKey, body, RecordingLimits)
	if err != nil {
		return nil, err
	}
	r.Fill(obj)
	if err := s.DB.WithContext(ctx).Create(&r).Error; err != nil {
		if derr := s.Files.Delete(context.WithoutCancel(ctx), r.StorageKey); derr != nil {
			slog.Warn("remove the file of an unrecorded call recording", "key", r.StorageKey, "err", derr)
		}
		return nil, models.Internal("record call recording: %w", err)
	}
	return &r, nil
}

// Recordings lists a page of a call's recordings.
func (s *Service) Recordings(ctx context.Context, call *CallSession, page models.PageRequest) ([]Recording, string, error) {
	var rows []Recording
	if err := page.Apply(s.DB.WithContext(ctx).Where("call_session_id = ?", call.ID), "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list call recordings: %w", err)
	}
	rows, next := models.Page(page, rows, func(r Recording) uuid.UUID { return r.ID })
	return rows, next, nil
}

// ICEServer is one entry of RTCConfiguration.iceServers.
type ICEServer struct {
	URLs       []string
	Username   string
	Credential string
}

// VoiceConfig is what a call's browsers need to connect: the ICE servers, and how long
// their TURN credentials last (0 when there are none).
type VoiceConfig struct {
	ICEServers []ICEServer
	TTL        time.Duration
}

// VoiceConfig answers the ICE servers of Settings. With a TURN secret, turn: and turns:
// URLs get short-lived credentials in coturn's REST API scheme (use-auth-secret): the
// username is "<expiry unix time>:<subject>" and the credential is the base64 HMAC-SHA1
// of the username under the secret, which coturn checks without any call to us.
func (s *Service) VoiceConfig(subject string) VoiceConfig {
	var stun, turn []string
	for _, u := range s.Settings.ICEServers {
		if strings.HasPrefix(u, "turn:") || strings.HasPrefix(u, "turns:") {
			turn = append(turn, u)
		} else {
			stun = append(stun, u)
		}
	}
	cfg := VoiceConfig{ICEServers: []ICEServer{}}
	if len(stun) > 0 {
		cfg.ICEServers = append(cfg.ICEServers, ICEServer{URLs: stun})
	}
	if len(turn) == 0 {
		return cfg
	}
	server := ICEServer{URLs: turn}
	if s.Settings.TURNSecret != "" {
		cfg.TTL = s.Settings.TURNCredentialTTL
		server.Username = strconv.FormatInt(s.now().Add(cfg.TTL).Unix(), 10) + ":" + subject
		mac := hmac.New(sha1.New, []byte(s.Settings.TURNSecret))
		mac.Write([]byte(server.Username))
		server.Credential = base64.StdEncoding.EncodeToString(mac.Sum(nil))
	}
	cfg.ICEServers = append(cfg.ICEServers, server)
	return cfg
}
