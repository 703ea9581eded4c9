# The README's two commands: `make run` (embedded default) and `make test` (the whole suite).
.PHONY: run test messages

run:
	scripts/run.sh

test:
	scripts/test.sh

messages:
	.venv/bin/python manage.py makemessages -l de --ignore=.venv --ignore=staticfiles
	.venv/bin/python manage.py compilemessages --ignore=.venv
