package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
)

type desktopStartRequest struct {
	DeviceLabel string `json:"device_label"`
}

type desktopStartResponse struct {
	DeviceCode              string `json:"device_code"`
	UserCode                string `json:"user_code"`
	VerificationURI         string `json:"verification_uri"`
	VerificationURIComplete string `json:"verification_uri_complete"`
	ExpiresIn               int    `json:"expires_in"`
	Interval                int    `json:"interval"`
}

// desktopAuthStart serves POST /api/v1/desktop/auth/start: a desktop app asks to sign in
// and gets a device code to poll with and a user code for the user to approve.
func (s *Server) desktopAuthStart(c *gin.Context) {
	var req desktopStartRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	start, err := s.Auth.StartDesktopSignIn(c, deviceLabelOf(c, req.DeviceLabel))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, desktopStartResponse{
		DeviceCode: start.DeviceCode, UserCode: start.UserCode,
		VerificationURI: start.VerificationURI, VerificationURIComplete: start.VerificationURIComplete,
		ExpiresIn: int(start.ExpiresAt.Sub(s.Now()).Seconds()), Interval: int(start.Interval.Seconds()),
	})
}

type desktopPollRequest struct {
	DeviceCode string `json:"device_code"`
}

type desktopPollResponse struct {
	Status   string `json:"status"`
	Interval int    `json:"interval,omitempty"`
	*deviceGrantResponse
}

// desktopAuthPoll serves POST /api/v1/desktop/auth/poll: 200 with the sign-in's status,
// and the tokens once it is approved. Errors: invalid (device_code).
func (s *Server) desktopAuthPoll(c *gin.Context) {
	var req desktopPollRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	poll, err := s.Auth.PollDesktopSignIn(c, req.DeviceCode, c.ClientIP())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	resp := desktopPollResponse{Status: poll.Status, Interval: int(poll.Interval.Seconds())}
	if poll.Grant != nil {
		resp.deviceGrantResponse = s.viewDeviceGrant(poll.Grant)
	}
	c.JSON(http.StatusOK, resp)
}

type desktopDecisionRequest struct {
	UserCode string `json:"user_code"`
}

type desktopDecisionResponse struct {
	Status      string `json:"status"`
	DeviceLabel string `json:"device_label"`
}

// desktopAuthApprove serves POST /api/v1/desktop/auth/approve (extension): the signed-in
// user approves the desktop sign-in showing user_code. Errors: invalid (access_token) for
// API keys, invalid (user_code).
func (s *Server) desktopAuthApprove(c *gin.Context) { s.decideDesktopSignIn(c, true) }

// desktopAuthDeny serves POST /api/v1/desktop/auth/deny (extension): the signed-in user
// refuses the desktop sign-in showing user_code. Errors as desktopAuthApprove.
func (s *Server) desktopAuthDeny(c *gin.Context) { s.decideDesktopSignIn(c, false) }

func (s *Server) decideDesktopSignIn(c *gin.Context, approve bool) {
	if !requireSession(c) {
		return
	}
	var req desktopDecisionRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	a, err := s.Auth.DecideDesktopSignIn(c, actor(c).UserID, req.UserCode, approve)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, desktopDecisionResponse{Status: a.Status, DeviceLabel: a.DeviceLabel})
}
