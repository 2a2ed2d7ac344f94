import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { callKeys, readRecordingsAgain } from "./queries";

describe("readRecordingsAgain", () => {
  it("does not keep the answer of a first read begun before the recording was saved", async () => {
    const queryClient = new QueryClient();
    const answers: ((items: string[]) => void)[] = [];
    const list = new QueryObserver<string[]>(queryClient, {
      queryKey: callKeys.recordings("call-1"),
      queryFn: () => new Promise<string[]>((resolve) => answers.push(resolve)),
    });
    const stop = list.subscribe(() => {});
    expect(answers).toHaveLength(1); // the list's first read is on its way

    const again = readRecordingsAgain(queryClient, "call-1");
    answers[0]([]); // read before the upload was answered
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[1](["call-1.webm"]);
    await again;

    expect(list.getCurrentResult().data).toEqual(["call-1.webm"]);
    stop();
  });
});
