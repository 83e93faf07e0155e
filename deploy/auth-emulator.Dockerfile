# Firebase Auth emulator for dev (no Java needed for the auth emulator).
FROM node:20-bookworm-slim
RUN npm install -g firebase-tools@15 --no-audit --no-fund
WORKDIR /emulator
RUN echo '{"emulators":{"auth":{"host":"0.0.0.0","port":9099},"ui":{"enabled":false},"singleProjectMode":true}}' > firebase.json
EXPOSE 9099
CMD ["firebase", "emulators:start", "--only", "auth", "--project", "demo-motoparts"]
