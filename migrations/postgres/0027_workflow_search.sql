-- The workflow's name folded to lower case for the list's search (GET
-- /projects/{id}/workflows?q=): Go writes it with strings.ToLower, which folds every
-- script, because SQLite's lower() and LIKE fold ASCII only (and PostgreSQL's lower()
-- depends on the database's locale). Names stored before this migration are folded here by
-- lower() for ASCII and the replaces for Russian capitals.
ALTER TABLE workflows ADD COLUMN name_folded TEXT NOT NULL DEFAULT '';
UPDATE workflows SET name_folded = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(name), 'Ё', 'ё'), 'А', 'а'), 'Б', 'б'), 'В', 'в'), 'Г', 'г'), 'Д', 'д'), 'Е', 'е'), 'Ж', 'ж'), 'З', 'з'), 'И', 'и'), 'Й', 'й'), 'К', 'к'), 'Л', 'л'), 'М', 'м'), 'Н', 'н'), 'О', 'о'), 'П', 'п'), 'Р', 'р'), 'С', 'с'), 'Т', 'т'), 'У', 'у'), 'Ф', 'ф'), 'Х', 'х'), 'Ц', 'ц'), 'Ч', 'ч'), 'Ш', 'ш'), 'Щ', 'щ'), 'Ъ', 'ъ'), 'Ы', 'ы'), 'Ь', 'ь'), 'Э', 'э'), 'Ю', 'ю'), 'Я', 'я');
