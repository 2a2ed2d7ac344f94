/** UnreadCount is a count beside a link or a name, read out as what it counts (label);
 * nothing when there is none. */
export function UnreadCount({ count, label }: { count: number; label: string }) {
  if (count < 1) return null;
  return (
    <span className="unread-count" title={label}>
      <span aria-hidden="true">{count}</span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
