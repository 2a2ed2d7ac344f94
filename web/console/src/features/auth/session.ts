import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";

export const meKey = ["auth", "me"] as const;

/** useMe is the signed-in user; a 401 means nobody is signed in. */
export function useMe() {
  return useQuery({ queryKey: meKey, queryFn: () => data(api.GET("/api/v1/auth/me")), retry: false });
}
