package automation

import (
	"maps"
	"regexp"
	"slices"
	"strings"
)

// unnamed finds a placeholder of a failure text that its reason_args left unfilled.
var unnamed = regexp.MustCompile(`\{[a-z_]+\}`)

// Reason codes of the failures the interpreter words itself. ReasonMissingValue: a
// condition (a switch case, a data field) read a value absent from the run's data; its
// reason_args name the path. ReasonNoCaseMatched: no case of a switch without a default
// was true. ReasonValueTooLarge: a data step's values are larger than the limit its
// reason_args give, in KiB.
const (
	ReasonMissingValue  = "missing_value"
	ReasonNoCaseMatched = "no_case_matched"
	ReasonValueTooLarge = "value_too_large"
)

// Reason codes of a loop.for_each's failures. ReasonNotAList: its items expression gave
// no list (reason_args: kind). ReasonTooManyItems: the list is longer than MaxLoopItems
// (count, limit). ReasonItemFailed: an item failed and the loop fails on a failed item
// (index, action_key, reason).
const (
	ReasonNotAList     = "not_a_list"
	ReasonTooManyItems = "too_many_items"
	ReasonItemFailed   = "item_failed"
)

// ReasonAttemptsExhausted words what to do about a dead-lettered action, whatever its
// last failure said while attempts remained ("retried automatically" no longer holds).
const ReasonAttemptsExhausted = "attempts_exhausted"

// ReasonEgressRefused is the reason_code of a call the egress policy refused; its
// reason_args are the host and the policy's reason (egress_reason, worded per language by
// EgressReason).
const ReasonEgressRefused = "egress_refused"

// failureTexts word every failure of a run a person reads (an action's reason and what to
// do about it, a run's terminal reason) in each language the API speaks, keyed as
// api/httpx's catalog is: language, then key. The run records a failure in English
// (workflow code cannot know who will read it) with its key and reason_args, and the API
// words it again in the reader's language; {name} stands for an argument. A reason's key
// K has its next action at K+".next" unless the failure names another (next_key).
var failureTexts = map[string]map[string]string{
	"en": {
		ReasonMissingValue:                  `"{path}" is missing from the run's data.`,
		ReasonMissingValue + ".next":        "Give the run the value (a test run's input starts from the trigger's sample), or write the condition so that it allows for its absence",
		ReasonNoCaseMatched:                 "No case of the switch was true, and it has no default branch.",
		ReasonNoCaseMatched + ".next":       "Turn on the default branch, add a case for this data, or connect an error path",
		ReasonValueTooLarge:                 "The data step's values are larger than {limit} KiB together.",
		ReasonValueTooLarge + ".next":       "Keep only the fields the next actions need",
		ReasonNotAList:                      "The loop's items are not a list but {kind}.",
		ReasonNotAList + ".next":            "Write the items expression so that it gives a list, e.g. steps.fetch.json.orders",
		ReasonTooManyItems:                  "The list has {count} items; a loop takes at most {limit}.",
		ReasonTooManyItems + ".next":        "Split the list, e.g. into pages the workflow fetches one by one",
		ReasonItemFailed:                    "Item {index} failed at {action_key}: {reason}",
		ReasonItemFailed + ".next":          "Open the item in the run inspector; to go on past failed items, set the loop's \"When an item fails\" to continue",
		ReasonAttemptsExhausted:             "The action failed on every attempt its retry policy allows.",
		ReasonAttemptsExhausted + ".next":   "Nothing retries it now: check the target, then retry the action",
		ReasonEgressRefused:                 "{host} may not be called: {egress_reason}.",
		ReasonEgressRefused + ".next":       "Use a public address, or ask the operator to allow-list it in APP_EGRESS_ALLOW",
		"condition_error":                   "{error}",
		"condition_error.next":              "Correct the condition's expression",
		"failed_earlier":                    "the action failed in an earlier execution of this run",
		"activity_error":                    "{error}",
		"no_worker":                         "no worker picked the action up: no running worker executes this action type",
		"no_worker.next":                    "Check that a worker is running, then retry the action",
		"timeout":                           "the action did not finish in time; it may or may not have taken effect",
		"canceled":                          "The run was cancelled while the action ran.",
		"canceled.next":                     "Replay the run if the action is still needed",
		"unexpected_error":                  "The action failed unexpectedly: {error}",
		"unexpected_error.next":             "Check the action's configuration and retry it",
		"action_crashed":                    "the action failed unexpectedly; it may or may not have taken effect",
		"previous_attempt_unanswered":       "the previous attempt stopped without an answer (a timeout or a restart); it may have taken effect",
		"field_invalid.next":                "Fix {field} and run the action again",
		"field_not_text":                    "Field {field} must be text.",
		"field_required":                    "Field {field} is required.",
		"field_seconds":                     "Field {field} must be a number of seconds above 0 and at most {limit}.",
		"field_string_list":                 "Field {field} must be a string or an array of strings.",
		"field_whole_number":                "Field {field} must be a whole number from 1 to {limit}.",
		"field_uuid":                        "Field {field} must be a UUID.",
		"field_date":                        "Field {field} must be a date YYYY-MM-DD.",
		"field_object":                      "Field {field} must be an object.",
		"field_json_object_size":            "Field {field} must be a JSON object of at most {limit} bytes.",
		"field_state_key":                   "Field {field} must be 1 to 128 letters, digits, _ . : or -.",
		"field_recipients":                  "Field {field} needs at least one recipient (or give cc or bcc).",
		"field_not_mail_address":            "Field {field} has \"{value}\", which is not a mail address.",
		"field_url_unusable":                "Field {field} is not a usable URL.",
		"field_method":                      "Field {field} must be GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS.",
		"field_role":                        "Field {field} must be owner, admin, member or viewer.",
		"field_absolute_url":                "Field {field} must be an absolute http or https URL.",
		"field_not_json":                    "Field {field} cannot be sent as JSON.",
		"field_response_format":             "Field {field} must be auto, json or text.",
		"field_headers":                     "Field {field} must be a JSON object of header names to values.",
		"field_header_value":                "Field {field}: the value of \"{name}\" must be text.",
		"field_header_name":                 "Field {field}: \"{name}\" is not a valid HTTP header.",
		"dependency_not_found":              "Config field {field} names no {type} integration.",
		"dependency_not_found.next":         "Choose a {type} integration of this project in {field}",
		"invalid_dependency_id":             "Config field {field} is not an integration id.",
		"dependency_missing":                "Integration {id} in config field {field} does not exist in this project.",
		"dependency_missing.next":           "Choose an existing {type} integration in {field}",
		"dependency_lookup_failed":          "Integration {id} in config field {field} could not be loaded.",
		"dependency_type_mismatch":          "Integration {id} in config field {field} is a {actual} integration, not {type}.",
		"dependency_type_mismatch.next":     "Choose a {type} integration in {field}",
		"auth_host_not_allowed":             "The http.auth integration in auth_dependency_id may be sent only to {hosts}, not to {host}.",
		"auth_host_not_allowed.next":        "Call one of the integration's allowed_hosts, or ask an admin to add this host to them",
		"auth_redirect_not_allowed":         "{host} redirected to {target}, where the http.auth integration in auth_dependency_id may not be sent; the redirect was not followed.",
		"auth_redirect_not_allowed.next":    "Call the final address directly, if it is one of the integration's allowed_hosts",
		"auth_credential_missing":           "The http.auth integration in auth_dependency_id has scheme {scheme} but no {name}.",
		"auth_credential_missing.next":      "Complete the integration's credentials",
		"auth_header_invalid":               "The http.auth integration in auth_dependency_id names an invalid header.",
		"auth_header_invalid.next":          "Fix the integration's header_name and header_value",
		"auth_scheme_missing":               "The http.auth integration in auth_dependency_id has no scheme bearer, basic or header.",
		"auth_scheme_missing.next":          "Set the integration's scheme",
		"too_many_redirects":                "{host} redirected more than {limit} times.",
		"too_many_redirects.next":           "Call the final address directly",
		"tls_certificate_invalid":           "{host} presented a TLS certificate that is not trusted: {error}.",
		"tls_certificate_invalid.next":      "Fix the endpoint's certificate or the URL's host name",
		"dns_failed":                        "Could not call {host}: {error}.",
		"dns_failed.next":                   "The action is retried automatically; check the URL if it keeps failing",
		"connection_failed":                 "Could not connect to {host}, nothing was sent: {error}.",
		"no_response":                       "The request was sent to {host} but no answer arrived: {error}.",
		"no_response_unknown":               "The request was sent to {host} but no answer arrived: {error}. The {method} may or may not have taken effect.",
		"body_cut_off":                      "{host} answered {status} but the body was cut off: {error}.",
		"body_cut_off_unknown":              "{host} answered {status} but the body was cut off: {error}. The {method} may or may not have taken effect.",
		"response_too_large":                "{host} answered {status} with a body larger than {limit} bytes.",
		"response_too_large.next":           "Ask the endpoint for less data, e.g. with paging or filters",
		"response_not_json":                 "{host} answered {status} but its body is not JSON, as response_format json requires.",
		"response_not_json.next":            "Set response_format to auto or text, or fix the endpoint",
		"http_status":                       "{host} answered {status} {status_text}.",
		"http_status_wait":                  "{host} answered {status} {status_text}. It asked to wait {wait} before retrying.",
		"http_status_unknown":               "{host} answered {status} {status_text}. The {method} may or may not have taken effect.",
		"http_auth.next":                    "Check the credentials in headers_json or the http.auth integration",
		"http_rejected.next":                "Fix the request (method, URL, headers or body) and run again",
		"retried.next":                      "The action is retried automatically",
		"retried_after.next":                "Wait {wait}; the action is retried automatically",
		"check_target.next":                 "Check the target system, then retry the action by hand if it did not take effect",
		"check_target_crashed.next":         "Check the target, then retry the action",
		"retry.next":                        "Retry this action",
		"run.succeeded":                     "all actions finished",
		"run.cancelled":                     "the run was cancelled",
		"run.failed":                        "action {action_key} failed: {reason}",
		"run.failed_short":                  "action {action_key} failed",
		"bot_token_missing":                 "No bot token is set in the {type} integration in {field}.",
		"bot_token_missing_itself":          "No bot token is set in the {type} integration.",
		"bot_token_missing.next":            "Enter the bot token in the integration",
		"bot_base_url_missing":              "No {provider} API address is known: the {type} integration in {field} has no api_base_url and the server has no default.",
		"bot_base_url_missing_itself":       "No {provider} API address is known: the {type} integration has no api_base_url and the server has no default.",
		"bot_base_url_missing.next":         "Set api_base_url on the integration, or ask the operator to configure the default",
		"bot_unusable":                      "Cannot use the {type} integration in {field}: {error}.",
		"bot_unusable_itself":               "Cannot use the {type} integration: {error}.",
		"bot_unusable.next":                 "Fix the integration's api_base_url or bot token",
		"smtp_no_host":                      "Cannot use the {type} integration in {field}: it has no host.",
		"smtp_no_host_itself":               "Cannot use the {type} integration: it has no host.",
		"smtp_no_host.next":                 "Fix the integration's settings",
		"smtp_security":                     "Cannot use the {type} integration in {field}: it has security {value}, not starttls, tls or none.",
		"smtp_security_itself":              "Cannot use the {type} integration: it has security {value}, not starttls, tls or none.",
		"smtp_security.next":                "Fix the integration's settings",
		"smtp_port":                         "Cannot use the {type} integration in {field}: it has port {value}, not a number between 1 and 65535.",
		"smtp_port_itself":                  "Cannot use the {type} integration: it has port {value}, not a number between 1 and 65535.",
		"smtp_port.next":                    "Fix the integration's settings",
		"smtp_from":                         "Cannot use the {type} integration in {field}: it has no valid from address.",
		"smtp_from_itself":                  "Cannot use the {type} integration: it has no valid from address.",
		"smtp_from.next":                    "Fix the integration's settings",
		"smtp_username":                     "Cannot use the {type} integration in {field}: it asks for {value} authentication but has no username.",
		"smtp_username_itself":              "Cannot use the {type} integration: it asks for {value} authentication but has no username.",
		"smtp_username.next":                "Fix the integration's settings",
		"smtp_auth":                         "Cannot use the {type} integration in {field}: it has auth {value}, not plain or login.",
		"smtp_auth_itself":                  "Cannot use the {type} integration: it has auth {value}, not plain or login.",
		"smtp_auth.next":                    "Fix the integration's settings",
		"agent_max_steps":                   "The agent was still calling tools after {count} model steps.",
		"agent_max_steps.next":              "Raise max_steps, or narrow the task",
		"agent_invalid_output_schema":       "output_schema does not compile: {error}.",
		"agent_invalid_output_schema.next":  "Correct output_schema",
		"agent_output_not_json":             "The model's final answer is not JSON: {value}",
		"agent_output_not_json.next":        "Ask for the JSON in instructions, or choose a model that follows output_schema",
		"agent_output_schema_mismatch":      "The model's final answer does not match output_schema: {error}",
		"agent_output_schema_mismatch.next": "Ask for the JSON in instructions, or loosen output_schema",
		"agent_provider_id":                 "action_dependency_id is not an integration id.",
		"agent_provider_missing":            "The project has no model provider {id}.",
		"agent_provider_disabled":           "The model provider {name} is disabled.",
		"agent_provider.next":               "Choose an active ai.model_provider integration of the project in action_dependency_id",
		"call_workflow_id":                  "workflow_id is not a workflow id.",
		"call_workflow_id.next":             "Choose the workflow to call",
		"call_too_deep":                     "Calls nest at most {limit} deep; this one would be {count}.",
		"call_too_deep.next":                "Call the workflow from fewer levels",
		"call_not_started":                  "The called run could not be started: {error}.",
		"call_not_followed":                 "The called run could not be followed: {error}.",
		"call_workflow_not_found":           "The project has no workflow {id}.",
		"call_workflow_not_callable":        "Workflow {name} is not published with a manual trigger.",
		"call_callee.next":                  "Choose a published workflow of this project with a manual trigger in workflow_id",
		"call_timeout":                      "The called run {id} did not end within {wait}.",
		"call_timeout.next":                 "Raise timeout_seconds, or call without wait",
		"call_ended":                        "The called run {id} ended {status}: {reason}.",
		"call_ended.next":                   "Look at the called run, then retry this action",
		"ai_no_access":                      "The session's user no longer has access to the project.",
		"ai_no_access.next":                 "Open a new session",
		"ai_employee_disabled":              "The project's AI employee is switched off.",
		"ai_employee_disabled.next":         "Switch it on in the employee's settings",
		"ai_turn_cancelled":                 "The turn was cancelled.",
		"ai_turn_cancelled.next":            "Send a new message",
		"ai_answered":                       "the model provider answered {status} {status_text}: {error}",
		"ai_unreachable":                    "the model provider could not be reached: {error}",
		"ai_egress_refused.next":            "Use a public base_url, or ask the operator to allow-list it in APP_EGRESS_ALLOW",
		"ai_retried.next":                   "The step is retried automatically",
		"ai_key.next":                       "Rotate the integration's api_key",
		"ai_model.next":                     "Check base_url and the model id",
		"ai_provider.next":                  "Check the model provider integration",
		"ai_tool_failed":                    "{error}",
		"ai_tool_failed.next":               "Check the project",
		"ai_runtime_refused":                "the agent runtime did not take the message",
		"ai_runtime_refused.next":           "Send the message again in a moment",
		"messenger_status":                  "{provider} answered {status} {status_text}.",
		"messenger_status_said":             "{provider} answered {status} {status_text}: {description}.",
		"messenger_status_wait":             "{provider} answered {status} {status_text}. It asked to wait {wait} before retrying.",
		"messenger_status_said_wait":        "{provider} answered {status} {status_text}: {description}. It asked to wait {wait} before retrying.",
		"messenger_egress_refused":          "The {provider} API address may not be called: {egress_reason}.",
		"messenger_egress_refused.next":     "Use a public api_base_url, or ask the operator to allow-list it in APP_EGRESS_ALLOW",
		"messenger_unreachable":             "Could not reach the {provider} API, nothing was sent: {error}.",
		"messenger_no_answer":               "The message was sent to the {provider} API but no answer arrived: {error}. It may or may not have been delivered.",
		"messenger_no_answer.next":          "Check the chat, then retry the action by hand if the message is missing",
		"messenger_unreadable":              "The {provider} API accepted the call but its answer could not be read ({error}). The message was probably delivered.",
		"messenger_unreadable.next":         "Check the chat before retrying the action by hand",
		"messenger_token.next":              "Check the bot token in the integration and that the bot may write to this chat",
		"messenger_request.next":            "Check chat_id, text and parse_mode",
		"messenger_settings.next":           "Check the action's settings and the integration",
		"smtp_egress_refused":               "The mail server {host} may not be reached: {egress_reason}.",
		"smtp_egress_refused.next":          "Use a public mail server, or ask the operator to allow-list it in APP_EGRESS_ALLOW",
		"smtp_dns_failed":                   "The mail server's name {host} could not be resolved: {error}.",
		"smtp_dns_failed.next":              "The action is retried automatically; check the integration's host if it keeps failing",
		"smtp_certificate_invalid":          "The mail server {host} presented a TLS certificate that is not trusted.",
		"smtp_certificate_invalid.next":     "Fix the server's certificate, or the integration's host and security",
		"smtp_auth_failed":                  "The mail server {host} did not accept the login: {error}.",
		"smtp_auth_failed.next":             "Check the integration's username, password and security",
		"smtp_session_refused":              "The mail server {host} refused the session: {status} {error}.",
		"smtp_session_refused.next":         "Check the integration's host, port and security",
		"smtp_unreachable":                  "Could not reach the mail server {host}, nothing was sent: {error}.",
		"smtp_refused":                      "The mail server {host} refused the message: {error}.",
		"smtp_unconfirmed":                  "The message was handed to the mail server {host} but no reply confirmed it: {error}. It may or may not be delivered.",
		"smtp_broke":                        "The connection to the mail server {host} broke before the message was handed over: {error}.",
		"smtp_addresses.next":               "Check the addresses in to, cc, bcc and the integration's from",
		"smtp_message.next":                 "Change the message or its recipients and run again",
		"smtp_ask.next":                     "Ask a recipient whether it arrived, then retry the action by hand if it did not",
		"smtp_login.next":                   "Set the integration's username and password",
		"smtp_recipients.next":              "Check the recipients and the integration's from address",
		"db_incomplete":                     "The database integration lacks its host, database or user name.",
		"db_incomplete.next":                "Complete the integration's settings",
		"db_settings_unusable":              "The database integration's settings do not make a connection: {error}.",
		"db_settings_unusable.next":         "Fix the integration's settings",
		"db_egress_refused":                 "The database may not be reached: {egress_reason}.",
		"db_egress_refused.next":            "Use a database the service may reach, or ask the operator to allow-list it in APP_EGRESS_ALLOW",
		"db_unreachable":                    "The database could not be reached: {error}.",
		"db_unreachable.next":               "The action is retried automatically; check the integration's host and port if it keeps failing",
		"db_answered":                       "The database answered {error} (SQLSTATE {status}).",
		"db_read_only.next":                 "The statement writes: set read_only to false (an owner or admin publishes it)",
		"db_slow.next":                      "Raise timeout_seconds or make the statement faster",
		"db_took_effect.next":               "Check whether the statement took effect before running it again",
		"db_login.next":                     "Check the integration's user name and password",
		"db_statement.next":                 "Fix the statement or its parameters",
		"db_check.next":                     "Check the statement and the database",
		"no_bot_chat_state":                 "bot.set_state keeps the state of the chat whose bot update started the run, and no bot update started this run.",
		"no_bot_chat_wait":                  "bot.wait_for_reply waits for the chat whose bot update started the run, and no bot update started this run.",
		"no_bot_chat.next":                  "Start the workflow from its messenger_a.relay.trigger; test runs and manual runs have no chat",
		"state_not_saved":                   "The dialog state could not be saved.",
		"wait_not_recorded":                 "The wait for the chat's reply could not be recorded.",
		"approval_not_recorded":             "The approval could not be recorded.",
		"approval_not_found":                "The approval this wait is for is not recorded.",
		"approval_not_found.next":           "Replay the run",
		"task_invalid":                      "The task cannot be created: check {fields}.",
		"task_invalid.next":                 "Fix the action's config and run the action again",
		"task_not_saved":                    "The task could not be saved.",
		"canceled_run":                      "the run was cancelled",
		"activity_error.next":               "Retry the action",
		"previous_attempt_unanswered.next":  "Check the target, then retry the action if it did not take effect",
	},
	"ru": {
		ReasonMissingValue:                  "В данных запуска нет «{path}».",
		ReasonMissingValue + ".next":        "Передайте запуску это значение (тестовый запуск начинается с примера данных триггера) или напишите условие так, чтобы оно допускало его отсутствие",
		ReasonNoCaseMatched:                 "Ни один вариант переключателя не подошёл, а ветки по умолчанию у него нет.",
		ReasonNoCaseMatched + ".next":       "Включите ветку по умолчанию, добавьте вариант для таких данных или подключите ветку ошибки",
		ReasonValueTooLarge:                 "Значения шага данных вместе больше {limit} КиБ.",
		ReasonValueTooLarge + ".next":       "Оставьте только поля, которые нужны следующим действиям",
		ReasonNotAList:                      "Элементы цикла — не список, а {kind}.",
		ReasonNotAList + ".next":            "Напишите выражение элементов так, чтобы оно давало список, например steps.fetch.json.orders",
		ReasonTooManyItems:                  "В списке {count} элементов, а цикл берёт не больше {limit}.",
		ReasonTooManyItems + ".next":        "Разбейте список, например на страницы, которые сценарий получает по одной",
		ReasonItemFailed:                    "Элемент {index} не удался на {action_key}: {reason}",
		ReasonItemFailed + ".next":          "Откройте элемент в инспекторе запуска; чтобы цикл шёл дальше мимо неудачных элементов, выберите для него «Если элемент не удался» — «продолжить»",
		ReasonAttemptsExhausted:             "Действие не удалось ни в одной из попыток, которые допускает его политика повторов.",
		ReasonAttemptsExhausted + ".next":   "Само оно больше не повторится: проверьте цель, затем повторите действие",
		ReasonEgressRefused:                 "Политика исходящих соединений не пускает к {host}: это {egress_reason}.",
		ReasonEgressRefused + ".next":       "Укажите публичный адрес или попросите оператора разрешить этот в настройке APP_EGRESS_ALLOW",
		"condition_error":                   "Выражение не удалось вычислить: {error}",
		"condition_error.next":              "Исправьте выражение условия",
		"failed_earlier":                    "Действие не удалось в одном из прежних выполнений этого запуска.",
		"activity_error":                    "Действие не удалось: {error}",
		"no_worker":                         "Действие никто не взял: ни один запущенный исполнитель не выполняет действия этого типа.",
		"no_worker.next":                    "Проверьте, что исполнитель запущен, затем повторите действие",
		"timeout":                           "Действие не уложилось в отведённое время; неизвестно, успело ли оно сработать.",
		"canceled":                          "Запуск отменили, пока действие выполнялось.",
		"canceled.next":                     "Повторите запуск, если действие ещё нужно",
		"unexpected_error":                  "Действие неожиданно не удалось: {error}",
		"unexpected_error.next":             "Проверьте настройки действия и повторите его",
		"action_crashed":                    "Действие неожиданно прервалось; неизвестно, успело ли оно сработать.",
		"previous_attempt_unanswered":       "Прежняя попытка действия была отправлена, но ответа не получила; неизвестно, сработала ли она.",
		"field_invalid.next":                "Исправьте {field} и выполните действие ещё раз",
		"field_not_text":                    "Поле {field} должно быть текстом.",
		"field_required":                    "Поле {field} обязательно.",
		"field_seconds":                     "Поле {field} должно быть числом секунд больше 0 и не больше {limit}.",
		"field_string_list":                 "Поле {field} должно быть строкой или массивом строк.",
		"field_whole_number":                "Поле {field} должно быть целым числом от 1 до {limit}.",
		"field_uuid":                        "Поле {field} должно быть идентификатором (UUID).",
		"field_date":                        "Поле {field} должно быть датой в виде ГГГГ-ММ-ДД.",
		"field_object":                      "Поле {field} должно быть объектом.",
		"field_json_object_size":            "Поле {field} должно быть объектом JSON не больше {limit} байт.",
		"field_state_key":                   "Поле {field} должно состоять из 1–128 букв, цифр и знаков _ . : или -.",
		"field_recipients":                  "В поле {field} нужен хотя бы один получатель (или укажите копию либо скрытую копию).",
		"field_not_mail_address":            "В поле {field} есть «{value}», а это не почтовый адрес.",
		"field_url_unusable":                "Поле {field} — непригодный адрес.",
		"field_method":                      "Поле {field} должно быть одним из методов GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS.",
		"field_role":                        "Поле {field} должно быть одной из ролей: «owner», «admin», «member» или «viewer».",
		"field_absolute_url":                "Поле {field} должно быть полным адресом со схемой «http» или «https».",
		"field_not_json":                    "Поле {field} нельзя отправить как JSON.",
		"field_response_format":             "Поле {field} должно быть «auto», «json» или «text».",
		"field_headers":                     "Поле {field} должно быть объектом JSON: имена заголовков и их значения.",
		"field_header_value":                "Поле {field}: значение «{name}» должно быть текстом.",
		"field_header_name":                 "Поле {field}: «{name}» — недопустимое имя заголовка.",
		"dependency_not_found":              "В поле настроек {field} не выбрана интеграция {type}.",
		"dependency_not_found.next":         "Выберите в {field} интеграцию {type} этого проекта",
		"invalid_dependency_id":             "Поле настроек {field} — не идентификатор интеграции.",
		"dependency_missing":                "Интеграции {id} из поля настроек {field} в этом проекте нет.",
		"dependency_missing.next":           "Выберите в {field} существующую интеграцию {type}",
		"dependency_lookup_failed":          "Интеграцию {id} из поля настроек {field} не удалось загрузить.",
		"dependency_type_mismatch":          "Интеграция {id} из поля настроек {field} — интеграция {actual}, а нужна {type}.",
		"dependency_type_mismatch.next":     "Выберите в {field} интеграцию {type}",
		"auth_host_not_allowed":             "Данные интеграции http.auth из auth_dependency_id можно отправлять только на {hosts}, а не на {host}.",
		"auth_host_not_allowed.next":        "Обращайтесь к одному из разрешённых адресов интеграции (allowed_hosts) или попросите администратора добавить этот",
		"auth_redirect_not_allowed":         "{host} перенаправил на {target}, куда данные интеграции http.auth из auth_dependency_id отправлять нельзя; перенаправление не выполнено.",
		"auth_redirect_not_allowed.next":    "Обращайтесь сразу к конечному адресу, если он среди разрешённых адресов интеграции (allowed_hosts)",
		"auth_credential_missing":           "У интеграции http.auth из auth_dependency_id схема {scheme}, но нет {name}.",
		"auth_credential_missing.next":      "Заполните учётные данные интеграции",
		"auth_header_invalid":               "Интеграция http.auth из auth_dependency_id задаёт недопустимый заголовок.",
		"auth_header_invalid.next":          "Исправьте имя и значение заголовка в интеграции",
		"auth_scheme_missing":               "У интеграции http.auth из auth_dependency_id нет схемы («bearer», «basic» или «header»).",
		"auth_scheme_missing.next":          "Выберите схему в интеграции",
		"too_many_redirects":                "{host} перенаправлял больше {limit} раз.",
		"too_many_redirects.next":           "Обращайтесь сразу к конечному адресу",
		"tls_certificate_invalid":           "{host} предъявил сертификат TLS, которому нельзя доверять: {error}.",
		"tls_certificate_invalid.next":      "Исправьте сертификат сервера или имя хоста в адресе",
		"dns_failed":                        "Не удалось обратиться к {host}: {error}.",
		"dns_failed.next":                   "Действие повторится само; если ошибка не проходит, проверьте адрес",
		"connection_failed":                 "Не удалось подключиться к {host}, ничего не отправлено: {error}.",
		"no_response":                       "Запрос отправлен на {host}, но ответа нет: {error}.",
		"no_response_unknown":               "Запрос отправлен на {host}, но ответа нет: {error}. Неизвестно, сработал ли {method}.",
		"body_cut_off":                      "{host} ответил {status}, но тело ответа оборвалось: {error}.",
		"body_cut_off_unknown":              "{host} ответил {status}, но тело ответа оборвалось: {error}. Неизвестно, сработал ли {method}.",
		"response_too_large":                "{host} ответил {status} с телом больше {limit} байт.",
		"response_too_large.next":           "Запрашивайте меньше данных, например постранично или с фильтрами",
		"response_not_json":                 "{host} ответил {status}, но тело ответа — не JSON, а его требует response_format «json».",
		"response_not_json.next":            "Выберите для response_format значение «auto» или «text» либо исправьте сервер",
		"http_status":                       "{host} ответил {status} {status_text}.",
		"http_status_wait":                  "{host} ответил {status} {status_text} и попросил подождать {wait}, прежде чем повторять.",
		"http_status_unknown":               "{host} ответил {status} {status_text}. Неизвестно, сработал ли {method}.",
		"http_auth.next":                    "Проверьте учётные данные в headers_json или в интеграции http.auth",
		"http_rejected.next":                "Исправьте запрос (метод, адрес, заголовки или тело) и запустите снова",
		"retried.next":                      "Действие повторится само",
		"retried_after.next":                "Подождите {wait}; действие повторится само",
		"check_target.next":                 "Проверьте целевую систему и, если действие не сработало, повторите его вручную",
		"check_target_crashed.next":         "Проверьте цель, затем повторите действие",
		"retry.next":                        "Повторите это действие",
		"run.succeeded":                     "Все действия выполнены.",
		"run.cancelled":                     "Запуск отменён.",
		"run.failed":                        "Действие {action_key} не удалось: {reason}",
		"run.failed_short":                  "Действие {action_key} не удалось.",
		"bot_token_missing":                 "В интеграции {type} из поля {field} не задан токен бота.",
		"bot_token_missing_itself":          "В интеграции {type} не задан токен бота.",
		"bot_token_missing.next":            "Введите токен бота в интеграции",
		"bot_base_url_missing":              "Адрес API {provider} неизвестен: у интеграции {type} из поля {field} нет api_base_url, а у сервера нет адреса по умолчанию.",
		"bot_base_url_missing_itself":       "Адрес API {provider} неизвестен: у интеграции {type} нет api_base_url, а у сервера нет адреса по умолчанию.",
		"bot_base_url_missing.next":         "Задайте api_base_url в интеграции или попросите оператора настроить адрес по умолчанию",
		"bot_unusable":                      "Интеграцию {type} из поля {field} нельзя использовать: {error}.",
		"bot_unusable_itself":               "Интеграцию {type} нельзя использовать: {error}.",
		"bot_unusable.next":                 "Исправьте api_base_url или токен бота в интеграции",
		"smtp_no_host":                      "Интеграцию {type} из поля {field} нельзя использовать: в ней нет хоста.",
		"smtp_no_host_itself":               "Интеграцию {type} нельзя использовать: в ней нет хоста.",
		"smtp_no_host.next":                 "Исправьте настройки интеграции",
		"smtp_security":                     "Интеграцию {type} из поля {field} нельзя использовать: защита соединения в ней — {value}, а не «starttls», «tls» или «none».",
		"smtp_security_itself":              "Интеграцию {type} нельзя использовать: защита соединения в ней — {value}, а не «starttls», «tls» или «none».",
		"smtp_security.next":                "Исправьте настройки интеграции",
		"smtp_port":                         "Интеграцию {type} из поля {field} нельзя использовать: порт в ней — {value}, а не число от 1 до 65535.",
		"smtp_port_itself":                  "Интеграцию {type} нельзя использовать: порт в ней — {value}, а не число от 1 до 65535.",
		"smtp_port.next":                    "Исправьте настройки интеграции",
		"smtp_from":                         "Интеграцию {type} из поля {field} нельзя использовать: в ней нет правильного адреса отправителя.",
		"smtp_from_itself":                  "Интеграцию {type} нельзя использовать: в ней нет правильного адреса отправителя.",
		"smtp_from.next":                    "Исправьте настройки интеграции",
		"smtp_username":                     "Интеграцию {type} из поля {field} нельзя использовать: она требует входа {value}, но имени пользователя нет.",
		"smtp_username_itself":              "Интеграцию {type} нельзя использовать: она требует входа {value}, но имени пользователя нет.",
		"smtp_username.next":                "Исправьте настройки интеграции",
		"smtp_auth":                         "Интеграцию {type} из поля {field} нельзя использовать: способ входа в ней — {value}, а не «plain» или «login».",
		"smtp_auth_itself":                  "Интеграцию {type} нельзя использовать: способ входа в ней — {value}, а не «plain» или «login».",
		"smtp_auth.next":                    "Исправьте настройки интеграции",
		"agent_max_steps":                   "Агент всё ещё вызывал инструменты после {count} шагов модели.",
		"agent_max_steps.next":              "Увеличьте max_steps или сузьте задачу",
		"agent_invalid_output_schema":       "output_schema не компилируется: {error}.",
		"agent_invalid_output_schema.next":  "Исправьте output_schema",
		"agent_output_not_json":             "Окончательный ответ модели — не JSON: {value}",
		"agent_output_not_json.next":        "Попросите JSON в инструкциях или выберите модель, которая следует output_schema",
		"agent_output_schema_mismatch":      "Окончательный ответ модели не соответствует output_schema: {error}",
		"agent_output_schema_mismatch.next": "Попросите JSON в инструкциях или ослабьте output_schema",
		"agent_provider_id":                 "action_dependency_id — не идентификатор интеграции.",
		"agent_provider_missing":            "В проекте нет провайдера модели {id}.",
		"agent_provider_disabled":           "Провайдер модели {name} отключён.",
		"agent_provider.next":               "Выберите в action_dependency_id активную интеграцию ai.model_provider этого проекта",
		"call_workflow_id":                  "workflow_id — не идентификатор сценария.",
		"call_workflow_id.next":             "Выберите сценарий, который нужно вызвать",
		"call_too_deep":                     "Вызовы вкладываются не глубже {limit} уровней, а этот был бы {count}-м.",
		"call_too_deep.next":                "Вызывайте сценарий с меньшей вложенностью",
		"call_not_started":                  "Вызванный запуск не удалось начать: {error}.",
		"call_not_followed":                 "За вызванным запуском не удалось следить: {error}.",
		"call_workflow_not_found":           "В проекте нет сценария {id}.",
		"call_workflow_not_callable":        "Сценарий {name} не опубликован с ручным триггером.",
		"call_callee.next":                  "Выберите в workflow_id опубликованный сценарий этого проекта с ручным триггером",
		"call_timeout":                      "Вызванный запуск {id} не закончился за {wait}.",
		"call_timeout.next":                 "Увеличьте timeout_seconds или вызывайте без ожидания",
		"call_ended":                        "Вызванный запуск {id} закончился со статусом {status}: {reason}.",
		"call_ended.next":                   "Посмотрите вызванный запуск, затем повторите это действие",
		"ai_no_access":                      "У пользователя сеанса больше нет доступа к проекту.",
		"ai_no_access.next":                 "Откройте новый сеанс",
		"ai_employee_disabled":              "ИИ-сотрудник проекта выключен.",
		"ai_employee_disabled.next":         "Включите его в настройках сотрудника",
		"ai_turn_cancelled":                 "Ход отменён.",
		"ai_turn_cancelled.next":            "Отправьте новое сообщение",
		"ai_answered":                       "провайдер модели ответил {status} {status_text}: {error}",
		"ai_unreachable":                    "не удалось связаться с провайдером модели: {error}",
		"ai_egress_refused.next":            "Укажите публичный base_url или попросите оператора разрешить адрес в настройке APP_EGRESS_ALLOW",
		"ai_retried.next":                   "Шаг повторится сам",
		"ai_key.next":                       "Замените api_key в интеграции",
		"ai_model.next":                     "Проверьте base_url и идентификатор модели",
		"ai_provider.next":                  "Проверьте интеграцию с провайдером модели",
		"ai_tool_failed":                    "Инструмент не сработал: {error}",
		"ai_tool_failed.next":               "Проверьте проект",
		"ai_runtime_refused":                "среда агента не приняла сообщение",
		"ai_runtime_refused.next":           "Отправьте сообщение ещё раз чуть позже",
		"messenger_status":                  "{provider} ответил {status} {status_text}.",
		"messenger_status_said":             "{provider} ответил {status} {status_text}: {description}.",
		"messenger_status_wait":             "{provider} ответил {status} {status_text} и попросил подождать {wait}, прежде чем повторять.",
		"messenger_status_said_wait":        "{provider} ответил {status} {status_text}: {description}; он попросил подождать {wait}, прежде чем повторять.",
		"messenger_egress_refused":          "К адресу API {provider} обращаться нельзя: это {egress_reason}.",
		"messenger_egress_refused.next":     "Укажите публичный api_base_url или попросите оператора разрешить адрес в настройке APP_EGRESS_ALLOW",
		"messenger_unreachable":             "Не удалось связаться с API {provider}, ничего не отправлено: {error}.",
		"messenger_no_answer":               "Сообщение отправлено в API {provider}, но ответа нет: {error}. Неизвестно, доставлено ли оно.",
		"messenger_no_answer.next":          "Проверьте чат и, если сообщения там нет, повторите действие вручную",
		"messenger_unreadable":              "API {provider} принял вызов, но его ответ не удалось прочитать ({error}). Скорее всего, сообщение доставлено.",
		"messenger_unreadable.next":         "Проверьте чат, прежде чем повторять действие вручную",
		"messenger_token.next":              "Проверьте токен бота в интеграции и что бот может писать в этот чат",
		"messenger_request.next":            "Проверьте chat_id, «text» и parse_mode",
		"messenger_settings.next":           "Проверьте настройки действия и интеграцию",
		"smtp_egress_refused":               "К почтовому серверу {host} обращаться нельзя: это {egress_reason}.",
		"smtp_egress_refused.next":          "Укажите публичный почтовый сервер или попросите оператора разрешить его в настройке APP_EGRESS_ALLOW",
		"smtp_dns_failed":                   "Имя почтового сервера {host} не удалось разрешить: {error}.",
		"smtp_dns_failed.next":              "Действие повторится само; если ошибка не проходит, проверьте хост в интеграции",
		"smtp_certificate_invalid":          "Почтовый сервер {host} предъявил сертификат TLS, которому нельзя доверять.",
		"smtp_certificate_invalid.next":     "Исправьте сертификат сервера либо хост и защиту соединения в интеграции",
		"smtp_auth_failed":                  "Почтовый сервер {host} не принял вход: {error}.",
		"smtp_auth_failed.next":             "Проверьте имя пользователя, пароль и защиту соединения в интеграции",
		"smtp_session_refused":              "Почтовый сервер {host} отказал в сеансе: {status} {error}.",
		"smtp_session_refused.next":         "Проверьте хост, порт и защиту соединения в интеграции",
		"smtp_unreachable":                  "Не удалось связаться с почтовым сервером {host}, ничего не отправлено: {error}.",
		"smtp_refused":                      "Почтовый сервер {host} отклонил письмо: {error}.",
		"smtp_unconfirmed":                  "Письмо передано почтовому серверу {host}, но подтверждения нет: {error}. Неизвестно, будет ли оно доставлено.",
		"smtp_broke":                        "Связь с почтовым сервером {host} оборвалась до передачи письма: {error}.",
		"smtp_addresses.next":               "Проверьте адреса получателей, копий и адрес отправителя в интеграции",
		"smtp_message.next":                 "Измените письмо или его получателей и запустите снова",
		"smtp_ask.next":                     "Спросите получателя, дошло ли письмо, и, если нет, повторите действие вручную",
		"smtp_login.next":                   "Укажите в интеграции имя пользователя и пароль",
		"smtp_recipients.next":              "Проверьте получателей и адрес отправителя в интеграции",
		"db_incomplete":                     "В интеграции базы данных не хватает хоста, имени базы или пользователя.",
		"db_incomplete.next":                "Заполните настройки интеграции",
		"db_settings_unusable":              "С настройками интеграции базы данных соединиться нельзя: {error}.",
		"db_settings_unusable.next":         "Исправьте настройки интеграции",
		"db_egress_refused":                 "К базе данных обращаться нельзя: это {egress_reason}.",
		"db_egress_refused.next":            "Укажите базу, доступную сервису, или попросите оператора разрешить её в настройке APP_EGRESS_ALLOW",
		"db_unreachable":                    "Не удалось связаться с базой данных: {error}.",
		"db_unreachable.next":               "Действие повторится само; если ошибка не проходит, проверьте хост и порт в интеграции",
		"db_answered":                       "База данных ответила: {error} (код {status}).",
		"db_read_only.next":                 "Запрос изменяет данные: выключите «только чтение» (публикует владелец или администратор)",
		"db_slow.next":                      "Увеличьте время ожидания или ускорьте запрос",
		"db_took_effect.next":               "Проверьте, сработал ли запрос, прежде чем запускать его снова",
		"db_login.next":                     "Проверьте имя пользователя и пароль в интеграции",
		"db_statement.next":                 "Исправьте запрос или его параметры",
		"db_check.next":                     "Проверьте запрос и базу данных",
		"no_bot_chat_state":                 "Действие bot.set_state хранит состояние чата, сообщение из которого начало запуск, а этот запуск начался не с сообщения бота.",
		"no_bot_chat_wait":                  "Действие bot.wait_for_reply ждёт ответа в чате, сообщение из которого начало запуск, а этот запуск начался не с сообщения бота.",
		"no_bot_chat.next":                  "Запускайте сценарий его триггером messenger_a.relay.trigger; у тестовых и ручных запусков чата нет",
		"state_not_saved":                   "Состояние диалога не удалось сохранить.",
		"wait_not_recorded":                 "Ожидание ответа в чате не удалось записать.",
		"approval_not_recorded":             "Согласование не удалось записать.",
		"approval_not_found":                "Согласование, которого ждёт действие, не записано.",
		"approval_not_found.next":           "Перезапустите запуск",
		"task_invalid":                      "Задачу нельзя создать: проверьте {fields}.",
		"task_invalid.next":                 "Исправьте настройки действия и выполните его ещё раз",
		"task_not_saved":                    "Задачу не удалось сохранить.",
		"canceled_run":                      "Запуск отменён.",
		"activity_error.next":               "Повторите действие",
		"previous_attempt_unanswered.next":  "Проверьте цель и, если действие не сработало, повторите его",
	},
}

// egressReasonsRu words egress.RefusedError's reasons in Russian.
var egressReasonsRu = map[string]string{
	"loopback address":       "адрес самой машины (loopback)",
	"private address":        "адрес частной сети",
	"link-local address":     "локальный адрес канала (link-local)",
	"unspecified address":    "неопределённый адрес",
	"multicast address":      "групповой адрес (multicast)",
	"reserved address":       "зарезервированный адрес",
	"shared (CGNAT) address": "адрес общей сети провайдера (CGNAT)",
}

// EgressReason is the egress policy's reason for refusing an address in lang.
func EgressReason(lang, reason string) string {
	if ru, ok := egressReasonsRu[reason]; ok && lang == "ru" {
		return ru
	}
	return reason
}

// FailureText is the reason and the next action of a recorded failure in lang (English
// for a language without texts): the texts of key and nextKey (key+".next" when empty; no
// text when the table has neither), and false for a key the table lacks, or a failure
// recorded without the reason_args its text names (then it is shown as recorded).
func FailureText(lang, key, nextKey string, args map[string]string) (reason, next string, ok bool) {
	texts, known := failureTexts[lang]
	if !known {
		texts = failureTexts["en"]
	}
	reason, ok = texts[key]
	if !ok {
		return "", "", false
	}
	if nextKey == "" {
		nextKey = key + ".next"
	}
	next = texts[nextKey]
	pairs := make([]string, 0, 2*len(args))
	for name, value := range args {
		if name == "egress_reason" {
			value = EgressReason(lang, value)
		}
		pairs = append(pairs, "{"+name+"}", value)
	}
	r := strings.NewReplacer(pairs...)
	reason, next = r.Replace(reason), r.Replace(next)
	if unfilled(texts[key]+texts[nextKey], args) {
		return "", "", false
	}
	return reason, next, true
}

// unfilled reports whether text names a placeholder args lacks.
func unfilled(text string, args map[string]string) bool {
	for _, m := range unnamed.FindAllString(text, -1) {
		if _, ok := args[m[1:len(m)-1]]; !ok {
			return true
		}
	}
	return false
}

// FailureKeys lists the failure table's keys in lang (for its tests).
func FailureKeys(lang string) []string {
	return slices.Sorted(maps.Keys(failureTexts[lang]))
}

// MissingValueError is a condition that failed on a value absent from the run's data.
type MissingValueError struct{ Path string }

func (e *MissingValueError) Error() string {
	reason, _, _ := FailureText("en", ReasonMissingValue, "", map[string]string{"path": e.Path})
	return reason
}
