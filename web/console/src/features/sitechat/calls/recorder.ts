// A call's recording in the operator's browser: both sides' voices mixed into one track
// (Web Audio), with the visitor's picture on a video call, written by MediaRecorder.
import { recordingType, type MediaKind } from "./callState";

export type Recording = { type: string; stop: () => Promise<Blob> };

/** record starts recording the call; stop ends it and answers the file. */
export function record(media: MediaKind, local: MediaStream, remote: MediaStream): Recording {
  const audio = new AudioContext();
  void audio.resume();
  const mix = audio.createMediaStreamDestination();
  for (const s of [local, remote]) {
    if (s.getAudioTracks().length) audio.createMediaStreamSource(s).connect(mix);
  }
  const tracks = [...mix.stream.getAudioTracks(), ...(media === "video" ? remote.getVideoTracks() : [])];
  const wanted = recordingType(media, (t) => MediaRecorder.isTypeSupported(t));
  const recorder = new MediaRecorder(new MediaStream(tracks), wanted ? { mimeType: wanted } : undefined);
  const chunks: Blob[] = [];
  recorder.ondataavailable = (e) => {
    if (e.data.size) chunks.push(e.data);
  };
  // In slices of a second: what was written stays if the recorder stops on an error.
  recorder.start(1000);
  const type = recorder.mimeType || wanted;
  return {
    type,
    stop: () =>
      new Promise<Blob>((resolve) => {
        const done = () => {
          void audio.close();
          resolve(new Blob(chunks, { type }));
        };
        if (recorder.state === "inactive") return done();
        recorder.onstop = done;
        recorder.stop();
      }),
  };
}
