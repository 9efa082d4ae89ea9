# syntax=docker/dockerfile:1
# hogbot, the Discord bot. Build: docker build -t hogbot .   Run: docker compose up -d (reads .env).
ARG PYTHON=python:3.11-slim-bookworm

# Stage 1: a virtualenv with the runtime dependencies of pyproject.toml, pinned by requirements.lock, and the
# project itself, installed as a wheel: installing compiles the solver's sweep (hogengine/solver/_kernel.c),
# so this stage alone has a C compiler (Python's headers come with the image).
FROM ${PYTHON} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml requirements.lock /tmp/
RUN python -m venv /opt/venv \
 && python -c "import tomllib; print(*tomllib.load(open('/tmp/pyproject.toml', 'rb'))['project']['dependencies'], sep='\n')" > /tmp/runtime.txt \
 && /opt/venv/bin/pip install --constraint /tmp/requirements.lock --requirement /tmp/runtime.txt
COPY pyproject.toml /src/
COPY hogengine /src/hogengine
COPY bot /src/bot
COPY migrations /src/migrations
RUN /opt/venv/bin/pip install --no-deps /src

# Stage 2: the virtualenv alone (the code is installed in it, compiled sweep and migrations included; no
# compiler), run by an unprivileged user; games live in the /app/data volume.
FROM ${PYTHON}
# HOGBOT_IMAGE: the bot's how-to without a token names what works in here (compose, `hog play`), not make.
ENV PATH=/opt/venv/bin:$PATH \
    HOGBOT_IMAGE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    HOG_DATABASE_PATH=/app/data/hog.sqlite3
# Fonts for names drawn in pictures beyond matplotlib's own: emoji, Chinese, Japanese and Korean.
RUN apt-get update \
 && apt-get install -y --no-install-recommends fonts-symbola fonts-wqy-zenhei \
 && rm -rf /var/lib/apt/lists/*
RUN useradd --create-home --uid 10001 hog \
 && mkdir -p /app/data \
 && chown hog:hog /app/data
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
USER hog
VOLUME ["/app/data"]
# Healthy while the bot is connected and its clock ticks (it touches /app/data/hogbot.heartbeat every tick).
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot", "--health"]
# Exec form, no shell in between: SIGTERM reaches the bot, which closes Discord and the database. Compose's
# `init: true` (`docker run --init`) puts a minimal init as PID 1 above it, forwarding the signal.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
