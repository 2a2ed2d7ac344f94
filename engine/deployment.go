package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/grpc/codes"
)

// DeploymentName is the Temporal Worker Deployment of this service's workers. Each build of
// the binary is a version of it, and only the workers of its current version take runs
// (docs/workflows.md, "Versioning").
const DeploymentName = "agencyhub"

// promotePoll is how often Promote asks again while the server registers the version.
const promotePoll = 200 * time.Millisecond

// deploymentOptions version a worker of build: it takes only the workflow tasks of runs
// routed to its version. Runs are AutoUpgrade: a running one moves to the current version at
// its next workflow task, so a restart onto a new build strands no run, and what the new
// code decides differently goes behind workflow.GetVersion.
func deploymentOptions(build string) worker.DeploymentOptions {
	return worker.DeploymentOptions{
		UseVersioning:             true,
		Version:                   worker.WorkerDeploymentVersion{DeploymentName: DeploymentName, BuildID: build},
		DefaultVersioningBehavior: workflow.VersioningBehaviorAutoUpgrade,
	}
}

var binaryBuild = sync.OnceValues(func() (string, error) {
	path, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
})

// BinaryBuildID is the build id of this binary: a checksum of its executable, so any two
// different binaries are two builds, with no build stamping needed. (Without a build id the
// SDK reports the same kind of checksum for a worker.) Errors: reading the executable.
func BinaryBuildID() (string, error) { return binaryBuild() }

// Promote makes build the current version of the deployment, so that new runs and the next
// workflow tasks of running ones go to its workers and no worker of another build takes
// them. It waits until the server has registered the version (its workers' first polls do)
// and answers the build that is current then. A build registered after this one stays
// current: an older binary that restarts during a rollout does not take the runs back (a
// rollback onto it is `temporal worker deployment set-current-version`). Errors: the
// server's, or ctx's end before the version was registered.
func Promote(ctx context.Context, c client.Client, build string) (string, error) {
	handle := c.WorkerDeploymentClient().GetHandle(DeploymentName)
	for {
		current, err := promote(ctx, handle, build)
		if err == nil {
			return current, nil
		}
		if !worthAnotherTry(err) {
			return "", err
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("make build %s current: %w (%w)", build, ctx.Err(), err)
		case <-time.After(promotePoll):
		}
	}
}

var errNotRegistered = errors.New("the version is not registered yet")

// worthAnotherTry tells whether another promote attempt may pass where this one failed:
// after errNotRegistered, NotFound (no deployment yet), FailedPrecondition (another worker
// changed the deployment meanwhile), and a server too busy to answer or a call it cut off,
// as start-up under load meets.
func worthAnotherTry(err error) bool {
	if errors.Is(err, errNotRegistered) {
		return true
	}
	switch serviceerror.ToStatus(err).Code() {
	case codes.NotFound, codes.FailedPrecondition, codes.Unavailable, codes.Canceled, codes.DeadlineExceeded, codes.ResourceExhausted:
		return true
	}
	return false
}

// promote is one attempt of Promote.
func promote(ctx context.Context, handle client.WorkerDeploymentHandle, build string) (string, error) {
	d, err := handle.Describe(ctx, client.WorkerDeploymentDescribeOptions{})
	if err != nil {
		return "", err
	}
	created := map[string]time.Time{}
	for _, v := range d.Info.VersionSummaries {
		created[v.Version.BuildID] = v.CreateTime
	}
	ours, ok := created[build]
	if !ok {
		return "", errNotRegistered
	}
	if current := d.Info.RoutingConfig.CurrentVersion; current != nil {
		if at, ok := created[current.BuildID]; current.BuildID == build || ok && at.After(ours) {
			return current.BuildID, nil
		}
	}
	_, err = handle.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{BuildID: build, ConflictToken: d.ConflictToken})
	if err != nil {
		return "", err
	}
	return build, nil
}
