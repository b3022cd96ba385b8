FROM index.docker.io/library/nginx:1.27
FROM registry.docker.com/bitnami/redis:7.2
FROM localhost:5000/team/app:v3
FROM Quay.IO/Coreos/Etcd:v3.5.0
FROM ubuntu
FROM ubuntu:latest
FROM alpine@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
FROM not a valid reference!
FROM UPPER CASE:tag
FROM
