package filestore

import (
	"context"
	"io"
	"log/slog"
)

// PutRecorded stores r under key as Put does, then calls record with what was stored (the
// caller writes its row). When record fails the blob is removed again, so no file outlives
// a row that was never written. Errors: Put's, then record's.
func (s *Store) PutRecorded(ctx context.Context, key string, r io.Reader, lim Limits, record func(Object) error) (Object, error) {
	obj, err := s.Put(ctx, key, r, lim)
	if err != nil {
		return Object{}, err
	}
	if err := record(obj); err != nil {
		if derr := s.Delete(context.WithoutCancel(ctx), key); derr != nil {
			slog.Warn("remove the file of an unrecorded upload", "key", key, "err", derr)
		}
		return Object{}, err
	}
	return obj, nil
}
