# Dame Nature Online: the game server (REST + websocket API and the browser UI).
#   docker build -t dame-nature .
#   docker run -p 8000:8000 -v dame-nature-data:/data dame-nature
# tests/server/test_dockerfile.py runs this file's COPY, pip install, CMD and HEALTHCHECK
# steps outside Docker, so keep them plain.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DAME_NATURE_HOST=0.0.0.0 \
    DAME_NATURE_PORT=8000 \
    DAME_NATURE_DB=/data/dame-nature.sqlite3

RUN useradd --create-home --uid 10001 dame && mkdir -p /data && chown dame:dame /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY src ./src
COPY templates ./templates
COPY static ./static
RUN pip install .

USER dame
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; port = os.environ.get('DAME_NATURE_PORT', '8000'); sys.exit(0 if urllib.request.urlopen(f'http://127.0.0.1:{port}/healthz', timeout=4).status == 200 else 1)"]
CMD ["dame-nature", "serve"]
