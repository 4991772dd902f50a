# goldp: Jupyter Notebook with the "Go (goldp)" kernel, for JupyterHub, Binder
# and courses.
#
#   docker build -t goldp .
#   docker run --rm -p 8888:8888 goldp
#
# The install steps call the same scripts CI runs (tools/deps.sh for Debian
# packages, `goldp install` for the kernelspec), so they are tested even where
# no Docker engine is available.

# --- build stage: the Go toolchain builds one static binary -------------------
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o /out/goldp .

# --- runtime stage: Debian's Jupyter Notebook + goldp ---------------------------
FROM debian:bookworm-slim
ARG NB_USER=jovyan
ARG NB_UID=1000
ENV HOME=/home/${NB_USER} \
    LANG=C.UTF-8
COPY tools/deps.sh /tmp/deps.sh
RUN bash /tmp/deps.sh notebook && rm -rf /var/lib/apt/lists/* /tmp/deps.sh
COPY --from=build /out/goldp /usr/local/bin/goldp
# System-wide kernelspec (/usr/local/share/jupyter/kernels/goldp), readable by every user.
RUN goldp install --sys-prefix
RUN useradd -m -s /bin/bash -u ${NB_UID} ${NB_USER}
COPY --chown=${NB_UID} notebooks/ ${HOME}/notebooks/
COPY --chown=${NB_UID} scripts/ ${HOME}/scripts/
USER ${NB_USER}
WORKDIR ${HOME}
EXPOSE 8888
# Binder and JupyterHub override the command; this default serves on all interfaces.
CMD ["jupyter", "notebook", "--ip=0.0.0.0", "--port=8888", "--no-browser"]
