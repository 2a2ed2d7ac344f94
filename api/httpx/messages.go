package httpx

import (
	"log/slog"

	"agencyhub/models"
)

// MessageText is the human part of a Problem.
type MessageText struct{ Title, Detail, Action string }

// catalog holds every Problem text in each language the API speaks, keyed by the domain
// error key. A test checks that both languages have every key and that every key the
// code uses is here.
var catalog = map[string]map[string]MessageText{
	"en": {
		"internal":                   {"Internal error", "The request could not be completed because of an error on our side.", "Retry later and quote the request id if it keeps failing"},
		"malformed_json":             {"Malformed JSON", "The request body is not valid JSON.", "Send a single valid JSON object"},
		"invalid_utf8":               {"Invalid text encoding", "The request body is not valid UTF-8.", "Encode the body as UTF-8"},
		"body_required":              {"Request body required", "This operation needs a JSON body, and the request had none.", "Send the JSON object the operation takes"},
		"invalid_body":               {"Invalid request", "Some request fields are missing, unknown or of the wrong type.", "Correct the fields named in validate"},
		"body_too_large":             {"Request too large", "The request body exceeds the size limit.", "Send a smaller body"},
		"unsupported_media_type":     {"Unsupported media type", "The request body must be JSON.", "Send the body with Content-Type: application/json"},
		"route_not_found":            {"Not found", "No operation exists at this path.", "Check the path against the API reference"},
		"method_not_allowed":         {"Method not allowed", "This path does not accept this method.", "Use a method listed in the Allow header"},
		"invalid_id":                 {"Invalid identifier", "An identifier is not a valid UUID.", "Check the identifiers named in validate"},
		"invalid_limit":              {"Invalid page size", "limit must be a whole number from 1 to 200.", "Correct limit"},
		"invalid_cursor":             {"Invalid cursor", "cursor is not one this API returned.", "Pass next_cursor from the previous page, or omit cursor"},
		"invalid_access_token":       {"Sign-in required", "The access token is missing, expired or revoked.", "Sign in again or refresh the access token"},
		"invalid_api_key":            {"Invalid API key", "The API key is unknown, expired or revoked.", "Check the X-API-Key header"},
		"invalid_refresh_token":      {"Session expired", "The refresh token is missing, expired or already used.", "Sign in again"},
		"csrf_failed":                {"CSRF check failed", "Requests authenticated by cookie must repeat the app_csrf cookie in the X-CSRF-Token header.", "Fetch a token from /api/v1/auth/csrf and send it in X-CSRF-Token"},
		"session_required":           {"Session required", "This operation applies to a signed-in session, not to an API key.", "Call it with an access token, or revoke the key through the API keys operations"},
		"role_too_low":               {"Not allowed", "Your role in this company does not allow this operation.", "Ask an owner or admin of the company"},
		"database_write_needs_admin": {"Not allowed", "The draft has a db.query that writes (read_only false); only an owner or admin may publish, restore or test it.", "Ask an owner or admin of the company, or make the query read-only"},
		"bad_credentials":            {"Wrong e-mail or password", "The e-mail or password is not correct.", "Check the e-mail and password"},
		"account_not_activated":      {"Account not activated", "The account has not been activated yet.", "Open the activation link mailed to you"},
		"too_many_login_attempts":    {"Too many attempts", "Too many failed sign-ins; further attempts are paused for a while.", "Wait for the time in Retry-After, then try again"},
		"password_length":            {"Unsuitable password", "The password must be 12 to 256 characters long.", "Choose a password of at least 12 characters"},
		"invalid_email":              {"Invalid e-mail", "The e-mail address is not valid.", "Check the e-mail address"},
		"invalid_name":               {"Invalid name", "The name must not be empty or too long.", "Check the name"},
		"email_taken":                {"E-mail already registered", "An account with this e-mail already exists.", "Sign in, or reset the password of that account"},
		"invalid_token":              {"Invalid token", "The token is unknown, expired or already used.", "Request a new link and use it once"},
		"user_not_found":             {"Account not found", "No such account.", "Check the account"},
		"session_not_found":          {"Session not found", "No such session among your active sessions.", "List your sessions and use one of their ids"},
		"expiry_in_past":             {"Expiry in the past", "expires_at must be in the future.", "Correct expires_at or omit it"},
		"api_key_not_found":          {"API key not found", "No such active API key.", "List your API keys and use one of their ids"},
		"invalid_slug":               {"Invalid slug", "A slug is 1 to 63 lower-case letters, digits and inner hyphens.", "Correct slug"},
		"slug_taken":                 {"Slug taken", "Another company already uses this slug.", "Choose another slug"},
		"company_not_found":          {"Company not found", "No such company among yours.", "Check company_id"},
		"project_not_found":          {"Project not found", "No such project among your companies.", "Check project_id"},
		"legal_entity_not_found":     {"Legal entity not found", "No such legal entity among your companies.", "Check company_legal_entity_id"},
		"member_not_found":           {"Member not found", "No such member in this company.", "Check user_id"},
		"not_a_member":               {"Not available", "You are not a member of the company or project given.", "Pick a company or project from your own lists"},
		"project_outside_company":    {"Project of another company", "The project does not belong to the selected company.", "Select the project's company, or omit active_company_id"},
		"invalid_legal_entity":       {"Invalid legal entity", "Some registry identifiers or details are wrong: a check digit does not match, a field is missing, or it does not fit the entity type.", "Correct the fields named in validate"},
		"invalid_role":               {"Invalid role", "role must be owner, admin, member or viewer.", "Correct role"},
		"owner_role_needs_owner":     {"Owners only", "Only an owner may grant or take away the owner role.", "Ask an owner of the company"},
		"no_such_account":            {"No such account", "No active account is registered with this e-mail.", "Ask the person to register first"},
		"already_a_member":           {"Already a member", "This account is already a member of the company.", "Change the member's role instead"},
		"last_owner":                 {"Last owner", "A company must keep at least one owner.", "Make another member an owner first"},
		"dependency_unavailable":     {"Service unavailable", "A service this operation depends on is not available.", "Retry later"},

		// Action and dependency type catalogs.
		"action_type_not_found":     {"Action type not found", "No action type has this key.", "Use an action_key from GET /api/v1/action-types"},
		"dependency_type_not_found": {"Dependency type not found", "No dependency type has this key.", "Use a dependency_type_key from GET /api/v1/action-dependency-types"},

		// Integrations and templates.
		"action_dependency_not_found": {"Integration not found", "No such integration in this project.", "List the project's action dependencies and use one of their ids"},
		"email_template_not_found":    {"E-mail template not found", "No such e-mail template in this project.", "List the project's e-mail templates and use one of their ids"},
		"message_template_not_found":  {"Message template not found", "No such message template in this project.", "List the project's message templates and use one of their ids"},
		"unknown_dependency_type":     {"Unknown dependency type", "dependency_type_key is not a type of the dependency catalog.", "Use a dependency_type_key from GET /api/v1/action-dependency-types"},
		"invalid_dependency_settings": {"Invalid integration settings", "Some metadata or auth fields do not match the dependency type's schemas.", "Correct the fields named in validate; the type's schemas are served by GET /api/v1/action-dependency-types/{dependency_type_key}"},
		"invalid_dependency_status":   {"Invalid status", "status must be active or disabled.", "Correct status"},
		"integration_name_taken":      {"Name taken", "Another integration of this project has this name.", "Choose another name"},
		"template_name_taken":         {"Name taken", "Another template of this kind in this project has this name.", "Choose another name"},
		"invalid_template":            {"Invalid template", "Some template fields are empty, too long or not allowed: a subject is one line, a message text at most 4096 characters, parse_mode empty, HTML, MarkdownV2 or Markdown.", "Correct the fields named in validate"},

		// Federated, native and desktop sign-in.
		"unsupported_provider":          {"Unsupported identity provider", "The identity provider is unknown or not configured on this server.", "Use one of idp_a, idp_b, idp_c that this server has configured"},
		"redirect_uri_not_allowed":      {"Redirect not allowed", "redirect_uri is not one of the app deep links this server allows.", "Send a deep link registered with the server operator"},
		"invalid_code_challenge":        {"Invalid PKCE challenge", "code_challenge must be the unpadded base64url SHA-256 of the verifier (43 characters) and code_challenge_method S256.", "Send an S256 code_challenge"},
		"invalid_oauth_callback":        {"Sign-in not completed", "The code or state is missing, wrong, expired or already used, or the sign-in was started in another browser.", "Start the sign-in again"},
		"provider_email_unverified":     {"E-mail not verified by the provider", "The identity provider did not confirm a verified e-mail address, so it cannot sign you in here.", "Verify your e-mail address with the identity provider, or sign in with e-mail and password"},
		"account_email_unverified":      {"Account e-mail not verified", "An account with this e-mail exists, but its address has not been verified, so the identity provider cannot be linked to it.", "Sign in with your password and verify the e-mail, or reset the password, then sign in with the provider again"},
		"identity_provider_unavailable": {"Identity provider unavailable", "The identity provider failed or did not answer; nothing was changed.", "Start the sign-in again later"},
		"invalid_native_exchange":       {"Invalid code exchange", "The code, code_verifier or state is wrong, expired or already used.", "Start the sign-in again and exchange the new code once, within two minutes"},
		"invalid_device_credential":     {"Device signed out", "The device credential is unknown, or its session has ended.", "Sign in on this device again"},
		"invalid_device_code":           {"Unknown device code", "The device code is unknown, or its sign-in has already handed out its tokens.", "Start the desktop sign-in again"},
		"invalid_user_code":             {"Unknown code", "No pending desktop sign-in shows this code; it may have expired or been decided already.", "Check the code the desktop app shows, or start again there"},
		// Workflows, versions and runs.
		"invalid_cron":               {"Invalid cron expression", "A schedule's cron must be five fields (minute hour day-of-month month day-of-week) or @hourly, @daily, @weekly, @monthly or @yearly, with the time zone in timezone, and may not restrict both the day of month and the day of week.", "Correct the cron expressions named in validate"},
		"schedules_unavailable":      {"Schedules not updated", "The change was saved, but the workflow engine did not accept the update of the workflow's schedules.", "Publish or restore the version again later"},
		"relay_not_found":            {"Relay not found", "No messenger relay has this key among your companies, or its integration is disabled.", "Check relay_key against the relay's webhook_url"},
		"invalid_relay_key":          {"Invalid relay key", "A relay key is 16 to 128 letters, digits, - or _.", "Check relay_key against the relay's webhook_url"},
		"invalid_relay_secret":       {"Wrong relay secret", "The relay's webhook secret is missing from X-Bot-Api-Secret-Token or is not the current one.", "Send the secret shown when it was last rotated in X-Bot-Api-Secret-Token"},
		"relay_not_messenger_a_bot":  {"Not a messenger_a bot", "Only messenger_a.bot integrations have a messenger relay.", "Choose a messenger_a.bot integration in action_dependency_id"},
		"bot_api_method_not_allowed": {"Method not relayed", "The bot API proxy forwards only getMe, getChat, sendMessage, editMessageText, editMessageReplyMarkup, deleteMessage, answerCallbackQuery and sendChatAction.", "Use one of the forwarded methods"},
		"bot_api_not_configured":     {"Bot not configured", "The integration has no bot token or no bot API address the server can use.", "Fix the integration's bot_token and api_base_url"},
		"bot_api_unavailable":        {"Bot API unavailable", "The bot API gave no usable answer.", "Retry later; check the integration with its test operation"},
		// Webhooks.
		"webhook_endpoint_not_found":   {"Webhook endpoint not found", "No such webhook endpoint among your companies.", "List the workflow's webhook endpoints and use one of their ids"},
		"webhook_event_not_found":      {"Webhook event not found", "No such webhook event among your companies.", "List the endpoint's events and use one of their ids"},
		"webhook_not_found":            {"Not found", "Nothing receives webhooks at this address: a key is wrong, the endpoint is disabled, or its workflow is not published with this trigger.", "Check the endpoint's url, that it is active, and that the workflow is published"},
		"webhook_receipt_not_found":    {"Receipt not found", "No run started through this webhook endpoint has this id.", "Use the receipt_url the webhook answered"},
		"webhook_trigger_missing":      {"No such webhook trigger", "The workflow has no webhook.trigger action with this endpoint_key.", "Add a webhook.trigger with this endpoint_key to the workflow (and publish it to receive requests)"},
		"endpoint_key_taken":           {"Endpoint key taken", "Another webhook endpoint of this project already uses this endpoint_key.", "Use another endpoint_key, or the existing endpoint"},
		"invalid_webhook_endpoint":     {"Invalid webhook endpoint", "Some endpoint settings are not allowed.", "Correct the fields named in validate"},
		"webhook_headers_missing":      {"Signature headers missing", "A signed webhook needs the headers webhook-id, webhook-timestamp and webhook-signature.", "Send the headers named in validate"},
		"webhook_timestamp_invalid":    {"Timestamp refused", "webhook-timestamp must be the Unix time in seconds at which the request was signed, at most 5 minutes from the server's clock.", "Sign the request again with the current time"},
		"webhook_signature_invalid":    {"Signature does not match", "No signature in webhook-signature is v1, the base64 HMAC-SHA256 of \"webhook-id.webhook-timestamp.body\" with the endpoint's secret.", "Sign the exact body with the endpoint's current secret"},
		"webhook_secret_invalid":       {"Wrong webhook secret", "X-Webhook-Secret is missing or is not the endpoint's secret.", "Send the endpoint's current secret in X-Webhook-Secret"},
		"webhook_basic_invalid":        {"Wrong credentials", "HTTP Basic authentication is missing, or its user name or password (the endpoint's secret) is wrong.", "Send Authorization: Basic with the endpoint's user name and secret"},
		"webhook_secret_unavailable":   {"Endpoint cannot verify requests", "The endpoint requires a secret it cannot use, so it refuses every request.", "Ask the endpoint's owner to rotate its secret"},
		"webhook_delivery_id_reused":   {"Delivery id reused", "A request with this delivery id and a different body was received before.", "Give every distinct delivery its own id; repeat an id only to retry the same body"},
		"webhook_delivery_in_progress": {"Delivery in progress", "A request with this delivery id is still being processed.", "Retry after the time in Retry-After"},
		"invalid_delivery_id":          {"Invalid delivery id", "A delivery id (webhook-id or Idempotency-Key) is at most 255 characters.", "Send a shorter id"},
		"invalid_wait":                 {"Invalid wait", "wait must be a whole number of seconds from 0 to 30.", "Correct wait"},
		"malformed_form":               {"Malformed form", "The body is not valid application/x-www-form-urlencoded data.", "Send a valid form body"},

		// Stored files and download links.
		"invalid_file_key":      {"Invalid file key", "A file key is 1 to 255 lower-case letters, digits, _ . - and single slashes between its parts, none of which is . or ..", "Correct key"},
		"file_too_large":        {"File too large", "The file exceeds the size limit of this kind of upload.", "Upload a smaller file"},
		"file_type_not_allowed": {"File type not allowed", "The file is not of a type accepted here; the type is recognised from the content, not from the name or the declared type.", "Upload a file of an accepted type"},
		"file_not_found":        {"File not found", "No such file is stored.", "Check the file, or upload it again"},
		"file_link_not_found":   {"Download link not valid", "The download link is wrong or has expired.", "Ask for a new download link"},

		// Patch importer and integration docs.
		"patch_not_found":           {"No patch found", "The body holds no JSON patch: neither JSON, nor a fenced json block, nor a JSON object in the text.", "Send the service-workflow-patch-v1 document as JSON"},
		"patch_invalid":             {"Invalid patch", "The patch does not match service-workflow-patch-v1; validate names the fields.", "Correct the fields named in validate (operations.<n>.<field>)"},
		"patch_wrong_workflow":      {"Patch for another workflow", "base_workflow_id is not the workflow the patch is imported into.", "Export this workflow's ai-context and write the patch for it"},
		"patch_rejected":            {"Patch cannot be applied", "Some operations do not fit the draft or the catalog (unknown or planned action types, configs, missing actions or connections); nothing was saved.", "Correct the operations named in validate and import again"},
		"integration_doc_not_found": {"Document not found", "No integration document has this slug.", "Search GET /api/v1/docs/integrations/search for the slug"},
		"invalid_docs_limit":        {"Invalid limit", "limit must be a whole number from 1 to 20.", "Correct limit"},
		"invalid_docs_query":        {"Query too long", "q must be at most 500 characters.", "Shorten q"},

		"workflow_not_found":         {"Workflow not found", "No such workflow among your companies.", "Check workflow_id"},
		"workflow_version_not_found": {"Version not found", "No such version of this workflow.", "Check workflow_version_id"},
		"run_not_found":              {"Run not found", "No such run among your companies.", "Check workflow_run_id"},
		"draft_invalid":              {"Draft has problems", "The draft cannot run or be published as it is; validate names each problem.", "Call POST /workflows/{workflow_id}/validate and fix each diagnostic"},
		"publish_conflict":           {"Published concurrently", "Another publish of this workflow happened at the same moment.", "Reload the workflow and publish again"},
		"workflow_not_published":     {"Not published", "The workflow has no published version to run.", "Publish the workflow first, or start a test run"},
		"no_manual_trigger":          {"No manual trigger", "The published version has no manual.trigger action.", "Add a manual.trigger action and publish"},
		"engine_unavailable":         {"Workflow engine unavailable", "The workflow engine did not accept the request.", "Retry later"},
		"run_finished":               {"Run finished", "The run has already finished.", "Replay the run to start it again"},
		"run_not_failed":             {"Run did not fail", "Only a failed run can retry an action.", "Wait for the run to finish, or replay it"},
		"action_not_failed":          {"Action did not fail", "Only a failed action can be retried.", "Pick an action whose status is failed or dead_lettered"},
		"unknown_action":             {"Unknown action", "The run's graph has no action with this key.", "Check action_key"},
		"template_not_found":         {"Template not found", "A send action names a template that does not exist in this project.", "Choose a template of the project, or write the text into the action"},
		"invalid_status":             {"Invalid status", "status must be pending, running, waiting, succeeded, failed or cancelled.", "Correct status"},
	},
	"ru": {
		"internal":                   {"Внутренняя ошибка", "Запрос не выполнен из-за ошибки на нашей стороне.", "Повторите позже; если ошибка повторяется, сообщите request_id"},
		"malformed_json":             {"Некорректный JSON", "Тело запроса не является корректным JSON.", "Отправьте один корректный JSON-объект"},
		"invalid_utf8":               {"Неверная кодировка текста", "Тело запроса не является корректным UTF-8.", "Закодируйте тело в UTF-8"},
		"body_required":              {"Нужно тело запроса", "Эта операция принимает JSON-тело, а запрос пришёл без него.", "Отправьте JSON-объект, который принимает операция"},
		"invalid_body":               {"Некорректный запрос", "Некоторые поля запроса отсутствуют, неизвестны или имеют неверный тип.", "Исправьте поля, перечисленные в validate"},
		"body_too_large":             {"Слишком большой запрос", "Тело запроса превышает допустимый размер.", "Отправьте тело меньшего размера"},
		"unsupported_media_type":     {"Неподдерживаемый формат", "Тело запроса должно быть в формате JSON.", "Отправьте тело с заголовком Content-Type: application/json"},
		"route_not_found":            {"Не найдено", "По этому пути нет операции.", "Сверьте путь со справочником API"},
		"method_not_allowed":         {"Метод не поддерживается", "Этот путь не принимает данный метод.", "Используйте метод из заголовка Allow"},
		"invalid_id":                 {"Некорректный идентификатор", "Идентификатор не является корректным UUID.", "Проверьте идентификаторы, перечисленные в validate"},
		"invalid_limit":              {"Некорректный размер страницы", "limit должен быть целым числом от 1 до 200.", "Исправьте limit"},
		"invalid_cursor":             {"Некорректный курсор", "cursor не был выдан этим API.", "Передайте next_cursor предыдущей страницы или не указывайте cursor"},
		"invalid_access_token":       {"Требуется вход", "Токен доступа отсутствует, истёк или отозван.", "Войдите снова или обновите токен доступа"},
		"invalid_api_key":            {"Неверный API-ключ", "API-ключ неизвестен, истёк или отозван.", "Проверьте заголовок X-API-Key"},
		"invalid_refresh_token":      {"Сессия истекла", "Токен обновления отсутствует, истёк или уже использован.", "Войдите снова"},
		"csrf_failed":                {"Проверка CSRF не пройдена", "Запросы с аутентификацией по cookie должны повторять cookie app_csrf в заголовке X-CSRF-Token.", "Получите токен в /api/v1/auth/csrf и передайте его в X-CSRF-Token"},
		"session_required":           {"Нужна сессия", "Операция относится к сессии входа, а не к API-ключу.", "Вызовите её с токеном доступа или отзовите ключ через операции API-ключей"},
		"role_too_low":               {"Недостаточно прав", "Ваша роль в компании не позволяет выполнить эту операцию.", "Обратитесь к владельцу или администратору компании"},
		"database_write_needs_admin": {"Недостаточно прав", "В черновике есть db.query, который пишет в базу (read_only false); опубликовать, восстановить или проверить его может только владелец или администратор.", "Обратитесь к владельцу или администратору компании или сделайте запрос только для чтения"},
		"bad_credentials":            {"Неверный e-mail или пароль", "E-mail или пароль указаны неверно.", "Проверьте e-mail и пароль"},
		"account_not_activated":      {"Учётная запись не активирована", "Учётная запись ещё не активирована.", "Откройте ссылку активации из письма"},
		"too_many_login_attempts":    {"Слишком много попыток", "Слишком много неудачных входов; попытки временно приостановлены.", "Подождите время из Retry-After и повторите"},
		"password_length":            {"Неподходящий пароль", "Пароль должен содержать от 12 до 256 символов.", "Выберите пароль не короче 12 символов"},
		"invalid_email":              {"Некорректный e-mail", "Адрес e-mail указан неверно.", "Проверьте адрес e-mail"},
		"invalid_name":               {"Некорректное имя", "Имя не должно быть пустым или слишком длинным.", "Проверьте имя"},
		"email_taken":                {"E-mail уже зарегистрирован", "Учётная запись с этим e-mail уже существует.", "Войдите или сбросьте пароль этой учётной записи"},
		"invalid_token":              {"Недействительный токен", "Токен неизвестен, истёк или уже использован.", "Запросите новую ссылку и используйте её один раз"},
		"user_not_found":             {"Учётная запись не найдена", "Такой учётной записи нет.", "Проверьте учётную запись"},
		"session_not_found":          {"Сессия не найдена", "Среди ваших активных сессий такой нет.", "Получите список сессий и используйте их идентификаторы"},
		"expiry_in_past":             {"Срок в прошлом", "expires_at должен быть в будущем.", "Исправьте expires_at или не указывайте его"},
		"api_key_not_found":          {"API-ключ не найден", "Такого активного API-ключа нет.", "Получите список ключей и используйте их идентификаторы"},
		"invalid_slug":               {"Некорректный slug", "Slug — от 1 до 63 строчных латинских букв, цифр и дефисов внутри.", "Исправьте slug"},
		"slug_taken":                 {"Slug занят", "Этот slug уже использует другая компания.", "Выберите другой slug"},
		"company_not_found":          {"Компания не найдена", "Среди ваших компаний такой нет.", "Проверьте company_id"},
		"project_not_found":          {"Проект не найден", "В ваших компаниях такого проекта нет.", "Проверьте project_id"},
		"legal_entity_not_found":     {"Юрлицо не найдено", "В ваших компаниях такого юрлица нет.", "Проверьте company_legal_entity_id"},
		"member_not_found":           {"Участник не найден", "В компании нет такого участника.", "Проверьте user_id"},
		"not_a_member":               {"Недоступно", "Вы не состоите в указанной компании или проекте.", "Выберите компанию или проект из своих списков"},
		"project_outside_company":    {"Проект другой компании", "Проект не принадлежит выбранной компании.", "Выберите компанию проекта или не указывайте active_company_id"},
		"invalid_legal_entity":       {"Некорректное юрлицо", "Реквизиты указаны неверно: не сходится контрольная цифра, не заполнено поле или оно не подходит к типу лица.", "Исправьте поля, перечисленные в validate"},
		"invalid_role":               {"Некорректная роль", "role должна быть owner, admin, member или viewer.", "Исправьте role"},
		"owner_role_needs_owner":     {"Только для владельцев", "Назначать и снимать роль владельца может только владелец.", "Обратитесь к владельцу компании"},
		"no_such_account":            {"Нет такой учётной записи", "Активной учётной записи с этим e-mail нет.", "Попросите человека сначала зарегистрироваться"},
		"already_a_member":           {"Уже участник", "Эта учётная запись уже состоит в компании.", "Измените роль участника"},
		"last_owner":                 {"Последний владелец", "У компании должен остаться хотя бы один владелец.", "Сначала назначьте владельцем другого участника"},
		"dependency_unavailable":     {"Сервис недоступен", "Сервис, от которого зависит операция, недоступен.", "Повторите позже"},

		// Action and dependency type catalogs.
		"action_type_not_found":     {"Тип действия не найден", "Нет типа действия с таким ключом.", "Используйте action_key из GET /api/v1/action-types"},
		"dependency_type_not_found": {"Тип интеграции не найден", "Нет типа интеграции с таким ключом.", "Используйте dependency_type_key из GET /api/v1/action-dependency-types"},

		// Integrations and templates.
		"action_dependency_not_found": {"Интеграция не найдена", "В этом проекте нет такой интеграции.", "Получите список интеграций проекта и используйте их идентификаторы"},
		"email_template_not_found":    {"Шаблон письма не найден", "В этом проекте нет такого шаблона письма.", "Получите список шаблонов писем проекта и используйте их идентификаторы"},
		"message_template_not_found":  {"Шаблон сообщения не найден", "В этом проекте нет такого шаблона сообщения.", "Получите список шаблонов сообщений проекта и используйте их идентификаторы"},
		"unknown_dependency_type":     {"Неизвестный тип интеграции", "dependency_type_key отсутствует в каталоге типов интеграций.", "Используйте dependency_type_key из GET /api/v1/action-dependency-types"},
		"invalid_dependency_settings": {"Некорректные настройки интеграции", "Некоторые поля metadata или auth не соответствуют схемам типа интеграции.", "Исправьте поля, перечисленные в validate; схемы типа выдаёт GET /api/v1/action-dependency-types/{dependency_type_key}"},
		"invalid_dependency_status":   {"Некорректный статус", "status должен быть active или disabled.", "Исправьте status"},
		"integration_name_taken":      {"Имя занято", "Другая интеграция этого проекта уже носит это имя.", "Выберите другое имя"},
		"template_name_taken":         {"Имя занято", "Другой шаблон этого вида в проекте уже носит это имя.", "Выберите другое имя"},
		"invalid_template":            {"Некорректный шаблон", "Некоторые поля шаблона пусты, слишком длинные или недопустимы: тема — одна строка, текст сообщения — не длиннее 4096 символов, parse_mode — пустой, HTML, MarkdownV2 или Markdown.", "Исправьте поля, перечисленные в validate"},

		// Federated, native and desktop sign-in.
		"unsupported_provider":          {"Провайдер входа не поддерживается", "Провайдер входа неизвестен или не настроен на этом сервере.", "Используйте один из настроенных на сервере провайдеров idp_a, idp_b, idp_c"},
		"redirect_uri_not_allowed":      {"Адрес возврата не разрешён", "redirect_uri не входит в список разрешённых сервером ссылок приложения.", "Передайте ссылку, зарегистрированную у администратора сервера"},
		"invalid_code_challenge":        {"Некорректный PKCE challenge", "code_challenge должен быть base64url-кодом SHA-256 от verifier без дополнения (43 символа), а code_challenge_method — S256.", "Передайте code_challenge по методу S256"},
		"invalid_oauth_callback":        {"Вход не завершён", "Код или state отсутствует, неверен, истёк или уже использован, либо вход начат в другом браузере.", "Начните вход заново"},
		"provider_email_unverified":     {"E-mail не подтверждён провайдером", "Провайдер входа не подтвердил ваш e-mail, поэтому войти через него нельзя.", "Подтвердите e-mail у провайдера входа или войдите по e-mail и паролю"},
		"account_email_unverified":      {"E-mail учётной записи не подтверждён", "Учётная запись с этим e-mail существует, но адрес не подтверждён, поэтому привязать к ней провайдера входа нельзя.", "Войдите по паролю и подтвердите e-mail или сбросьте пароль, затем снова войдите через провайдера"},
		"identity_provider_unavailable": {"Провайдер входа недоступен", "Провайдер входа вернул ошибку или не ответил; ничего не изменено.", "Начните вход заново позже"},
		"invalid_native_exchange":       {"Некорректный обмен кода", "code, code_verifier или state неверны, истекли или уже использованы.", "Начните вход заново и обменяйте новый код один раз в течение двух минут"},
		"invalid_device_credential":     {"Устройство вышло из системы", "Учётные данные устройства неизвестны или их сессия завершена.", "Войдите на этом устройстве заново"},
		"invalid_device_code":           {"Неизвестный код устройства", "Код устройства неизвестен или по нему уже выданы токены.", "Начните вход в настольном приложении заново"},
		"invalid_user_code":             {"Неизвестный код", "Нет ожидающего входа в настольное приложение с этим кодом; возможно, он истёк или уже обработан.", "Проверьте код в настольном приложении или начните вход там заново"},
		// Workflows, versions and runs.
		"invalid_cron":               {"Неверное выражение cron", "cron расписания — пять полей (минута, час, день месяца, месяц, день недели) или @hourly, @daily, @weekly, @monthly, @yearly; часовой пояс задаётся в timezone; день месяца и день недели нельзя ограничивать одновременно.", "Исправьте выражения cron, перечисленные в validate"},
		"schedules_unavailable":      {"Расписания не обновлены", "Изменение сохранено, но движок процессов не принял обновление расписаний процесса.", "Повторите публикацию или восстановление версии позже"},
		"relay_not_found":            {"Ретранслятор не найден", "В ваших компаниях нет ретранслятора с таким ключом, или его интеграция отключена.", "Сверьте relay_key с webhook_url ретранслятора"},
		"invalid_relay_key":          {"Неверный ключ ретранслятора", "Ключ ретранслятора состоит из 16–128 латинских букв, цифр, - или _.", "Сверьте relay_key с webhook_url ретранслятора"},
		"invalid_relay_secret":       {"Неверный секрет ретранслятора", "Секрет вебхука ретранслятора не передан в X-Bot-Api-Secret-Token или не является текущим.", "Передайте в X-Bot-Api-Secret-Token секрет, показанный при последней смене"},
		"relay_not_messenger_a_bot":  {"Это не бот messenger_a", "Ретранслятор сообщений есть только у интеграций messenger_a.bot.", "Укажите в action_dependency_id интеграцию messenger_a.bot"},
		"bot_api_method_not_allowed": {"Метод не пересылается", "Прокси Bot API пересылает только getMe, getChat, sendMessage, editMessageText, editMessageReplyMarkup, deleteMessage, answerCallbackQuery и sendChatAction.", "Используйте один из пересылаемых методов"},
		"bot_api_not_configured":     {"Бот не настроен", "У интеграции нет токена бота или адреса Bot API, доступного серверу.", "Исправьте bot_token и api_base_url интеграции"},
		"bot_api_unavailable":        {"Bot API недоступен", "Bot API не дал пригодного ответа.", "Повторите позже; проверьте интеграцию операцией test"},
		// Webhooks.
		"webhook_endpoint_not_found":   {"Точка приёма не найдена", "В ваших компаниях нет такой точки приёма вебхуков.", "Получите список точек приёма процесса и используйте один из их идентификаторов"},
		"webhook_event_not_found":      {"Событие вебхука не найдено", "В ваших компаниях нет такого события вебхука.", "Получите список событий точки приёма и используйте один из их идентификаторов"},
		"webhook_not_found":            {"Не найдено", "По этому адресу вебхуки не принимаются: неверен ключ, точка приёма отключена или процесс не опубликован с этим триггером.", "Проверьте url точки приёма, что она активна и что процесс опубликован"},
		"webhook_receipt_not_found":    {"Квитанция не найдена", "Через эту точку приёма не запускался процесс с таким идентификатором.", "Используйте receipt_url из ответа на вебхук"},
		"webhook_trigger_missing":      {"Нет такого триггера вебхука", "В процессе нет действия webhook.trigger с этим endpoint_key.", "Добавьте в процесс webhook.trigger с этим endpoint_key (и опубликуйте, чтобы принимать запросы)"},
		"endpoint_key_taken":           {"Ключ точки приёма занят", "Другая точка приёма этого проекта уже использует этот endpoint_key.", "Выберите другой endpoint_key или используйте существующую точку приёма"},
		"invalid_webhook_endpoint":     {"Некорректная точка приёма", "Некоторые настройки точки приёма недопустимы.", "Исправьте поля, перечисленные в validate"},
		"webhook_headers_missing":      {"Нет заголовков подписи", "Подписанный вебхук должен содержать заголовки webhook-id, webhook-timestamp и webhook-signature.", "Передайте заголовки, перечисленные в validate"},
		"webhook_timestamp_invalid":    {"Метка времени отклонена", "webhook-timestamp — время подписи запроса в секундах Unix, не дальше 5 минут от часов сервера.", "Подпишите запрос заново с текущим временем"},
		"webhook_signature_invalid":    {"Подпись не совпадает", "Ни одна подпись в webhook-signature не равна v1 — base64 от HMAC-SHA256 строки \"webhook-id.webhook-timestamp.тело\" на секрете точки приёма.", "Подпишите точное тело текущим секретом точки приёма"},
		"webhook_secret_invalid":       {"Неверный секрет вебхука", "X-Webhook-Secret не передан или не совпадает с секретом точки приёма.", "Передайте текущий секрет точки приёма в X-Webhook-Secret"},
		"webhook_basic_invalid":        {"Неверные учётные данные", "Нет HTTP Basic-аутентификации, или неверно имя пользователя либо пароль (секрет точки приёма).", "Передайте Authorization: Basic с именем пользователя и секретом точки приёма"},
		"webhook_secret_unavailable":   {"Точка приёма не может проверять запросы", "Точке приёма нужен секрет, которым она не может воспользоваться, поэтому она отклоняет все запросы.", "Попросите владельца точки приёма сменить её секрет"},
		"webhook_delivery_id_reused":   {"Идентификатор доставки повторён", "Запрос с этим идентификатором доставки и другим телом уже был получен.", "Давайте каждой доставке свой идентификатор; повторяйте его только при повторе того же тела"},
		"webhook_delivery_in_progress": {"Доставка обрабатывается", "Запрос с этим идентификатором доставки ещё обрабатывается.", "Повторите через время из Retry-After"},
		"invalid_delivery_id":          {"Некорректный идентификатор доставки", "Идентификатор доставки (webhook-id или Idempotency-Key) — не длиннее 255 символов.", "Передайте более короткий идентификатор"},
		"invalid_wait":                 {"Некорректный wait", "wait — целое число секунд от 0 до 30.", "Исправьте wait"},
		"malformed_form":               {"Некорректная форма", "Тело не является корректными данными application/x-www-form-urlencoded.", "Отправьте корректное тело формы"},

		// Stored files and download links.
		"invalid_file_key":      {"Некорректный ключ файла", "Ключ файла — от 1 до 255 строчных латинских букв, цифр, _ . - и одиночных косых черт между частями; часть не может быть . или ..", "Исправьте key"},
		"file_too_large":        {"Файл слишком большой", "Файл превышает допустимый размер для этого вида загрузки.", "Загрузите файл меньшего размера"},
		"file_type_not_allowed": {"Тип файла не допускается", "Файл не относится к допустимым здесь типам; тип определяется по содержимому, а не по имени или заявленному типу.", "Загрузите файл допустимого типа"},
		"file_not_found":        {"Файл не найден", "Такой файл не хранится.", "Проверьте файл или загрузите его снова"},
		"file_link_not_found":   {"Ссылка недействительна", "Ссылка на скачивание неверна или её срок истёк.", "Запросите новую ссылку на скачивание"},

		// Patch importer and integration docs.
		"patch_not_found":           {"Патч не найден", "В теле нет JSON-патча: ни JSON, ни блока ```json, ни JSON-объекта в тексте.", "Отправьте документ service-workflow-patch-v1 в формате JSON"},
		"patch_invalid":             {"Некорректный патч", "Патч не соответствует формату service-workflow-patch-v1; validate перечисляет поля.", "Исправьте поля из validate (operations.<n>.<поле>)"},
		"patch_wrong_workflow":      {"Патч для другого процесса", "base_workflow_id не совпадает с процессом, в который импортируется патч.", "Выгрузите ai-context этого процесса и составьте патч для него"},
		"patch_rejected":            {"Патч нельзя применить", "Часть операций не подходит к черновику или каталогу (неизвестные или запланированные типы действий, конфигурации, несуществующие действия или связи); ничего не сохранено.", "Исправьте операции из validate и импортируйте снова"},
		"integration_doc_not_found": {"Документ не найден", "Документа интеграции с таким slug нет.", "Найдите slug через GET /api/v1/docs/integrations/search"},
		"invalid_docs_limit":        {"Некорректный limit", "limit должен быть целым числом от 1 до 20.", "Исправьте limit"},
		"invalid_docs_query":        {"Слишком длинный запрос", "q должен быть не длиннее 500 символов.", "Сократите q"},

		"workflow_not_found":         {"Процесс не найден", "В ваших компаниях такого процесса нет.", "Проверьте workflow_id"},
		"workflow_version_not_found": {"Версия не найдена", "У процесса нет такой версии.", "Проверьте workflow_version_id"},
		"run_not_found":              {"Запуск не найден", "В ваших компаниях такого запуска нет.", "Проверьте workflow_run_id"},
		"draft_invalid":              {"В черновике ошибки", "Черновик нельзя запустить или опубликовать в таком виде; validate перечисляет проблемы.", "Вызовите POST /workflows/{workflow_id}/validate и исправьте каждую диагностику"},
		"publish_conflict":           {"Одновременная публикация", "В тот же момент процесс опубликовали ещё раз.", "Обновите процесс и опубликуйте снова"},
		"workflow_not_published":     {"Не опубликован", "У процесса нет опубликованной версии для запуска.", "Сначала опубликуйте процесс или запустите тест"},
		"no_manual_trigger":          {"Нет ручного запуска", "В опубликованной версии нет действия manual.trigger.", "Добавьте действие manual.trigger и опубликуйте"},
		"engine_unavailable":         {"Движок процессов недоступен", "Движок процессов не принял запрос.", "Повторите позже"},
		"run_finished":               {"Запуск завершён", "Запуск уже завершился.", "Повторите запуск (replay)"},
		"run_not_failed":             {"Запуск не завершился ошибкой", "Повторить действие можно только в запуске с ошибкой.", "Дождитесь завершения запуска или повторите его"},
		"action_not_failed":          {"Действие без ошибки", "Повторить можно только действие с ошибкой.", "Выберите действие со статусом failed или dead_lettered"},
		"unknown_action":             {"Неизвестное действие", "В графе запуска нет действия с таким ключом.", "Проверьте action_key"},
		"template_not_found":         {"Шаблон не найден", "Действие отправки ссылается на шаблон, которого нет в проекте.", "Выберите шаблон проекта или впишите текст в действие"},
		"invalid_status":             {"Некорректный статус", "status должен быть pending, running, waiting, succeeded, failed или cancelled.", "Исправьте status"},
	},
}

// kindFallback names the catalog entry used when a key is missing, per kind.
var kindFallback = map[models.Kind]string{
	models.KindInvalid:         "invalid_body",
	models.KindUnauthenticated: "invalid_access_token",
	models.KindForbidden:       "role_too_low",
	models.KindNotFound:        "route_not_found",
	models.KindConflict:        "invalid_body",
	models.KindRateLimited:     "too_many_login_attempts",
	models.KindUnavailable:     "dependency_unavailable",
	models.KindInternal:        "internal",
}

// Message returns the text of key in lang, falling back to the kind's generic text (and
// logging the gap) when the catalog lacks the key.
func Message(lang, key string, kind models.Kind) MessageText {
	texts := catalog[lang]
	if texts == nil {
		texts = catalog["en"]
	}
	if m, ok := texts[key]; ok {
		return m
	}
	slog.Warn("message catalog has no entry", "key", key, "lang", lang)
	return texts[kindFallback[kind]]
}
