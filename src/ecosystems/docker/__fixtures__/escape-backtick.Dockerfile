# escape=`
FROM mcr.microsoft.com/windows/servercore:ltsc2022 `
  AS base
RUN echo `
  done
FROM mcr.microsoft.com/dotnet/runtime:8.0-nanoserver-ltsc2022
