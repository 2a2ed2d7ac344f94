import { texts } from "../../lib/texts";

export const desktop = texts(
  "desktop",
  {
    inbox: "Inbox",
    inboxUnread: "Inbox, {{count}} unread",
    markRead: "Mark read",
    markAllRead: "Mark all read",
    nothing: "Nothing new. Failed runs, approvals, payments due, assigned tasks and visitors' new conversations appear here.",
    unread: "unread",
    loadMore: "Show older",
  },
  {
    inbox: "Входящие",
    inboxUnread: "Входящие, непрочитанных: {{count}}",
    markRead: "Прочитано",
    markAllRead: "Прочитать все",
    nothing: "Ничего нового. Здесь появляются сбои запусков, согласования, платежи к оплате, назначенные задачи и новые разговоры с посетителями.",
    unread: "не прочитано",
    loadMore: "Показать старые",
  },
);
